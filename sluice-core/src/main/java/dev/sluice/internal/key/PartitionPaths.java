package dev.sluice.internal.key;

import dev.sluice.internal.error.Errors;
import java.nio.charset.StandardCharsets;

/**
 * The checks and the encoding that keep a partition value inside its table. A value becomes one folder level (hive
 * style, or one of several partition fields) or, for a single plain partition field, possibly several levels split
 * at {@code /} (Hudi's {@code 2024/01/31} convention). Each level must be a usable folder name that stays where it
 * is and that queries list: not empty, not {@code .} or {@code ..} nor anything else starting with {@code .} (a
 * hidden folder, skipped by partition listing), no NUL, at most {@value #MAX_LEVEL_BYTES} bytes. With
 * {@code hoodie.datasource.write.partitionpath.urlencode} the characters Hudi escapes are written as {@code %XX}
 * first, so {@code /} and control characters can no longer split or break a level; {@code .} and {@code ..} are not
 * among them (Hudi leaves them as they are), so a level starting with a dot stays refused either way.
 */
final class PartitionPaths {
  /** The longest folder name common file systems (ext4, xfs, HDFS's default limit) accept, in UTF-8 bytes. */
  static final int MAX_LEVEL_BYTES = 255;
  /**
   * The characters Hudi's {@code PartitionPathEncodeUtils.escapePathName} writes as {@code %XX} (besides the control
   * characters below a space): the ones Hive also escapes in partition folder names.
   */
  private static final String ESCAPED = "\"#%'*/:=?\\\u007f{[]^";

  private PartitionPaths() {
  }

  /** {@code value} with the characters Hudi escapes written as {@code %XX} (upper-case hex of the char). */
  static String escape(String value) {
    StringBuilder sb = null;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean escape = c < ' ' || ESCAPED.indexOf(c) >= 0;
      if (escape && sb == null) {
        sb = new StringBuilder(value.length() + 8).append(value, 0, i);
      }
      if (escape) {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? value : sb.toString();
  }

  /**
   * Checks the folder levels one partition field's value makes ({@code text}: the value as it goes into the path,
   * with its {@code field=} prefix when hive style). {@code oneLevel}: the value must not split into levels.
   */
  static void check(String field, String value, String text, boolean oneLevel, boolean urlEncode) {
    if (text.indexOf('\0') >= 0) {
      throw refused(field, value, "it contains a NUL character, which no file name can hold", !urlEncode);
    }
    if (oneLevel && text.indexOf('/') >= 0) {
      throw refused(field, value, "it contains '/', which would split it into nested folders where this field is one"
          + " folder level", !urlEncode);
    }
    int from = 0;
    while (true) {
      int slash = text.indexOf('/', from);
      String level = slash < 0 ? text.substring(from) : text.substring(from, slash);
      if (level.isEmpty()) {
        throw refused(field, value, from == 0 ? "it starts with '/' (an absolute path)" : slash < 0
            ? "it ends with '/' (an empty folder level)" : "it holds '//' (an empty folder level)", !urlEncode);
      }
      if (level.equals(".") || level.equals("..")) {
        throw refused(field, value, "the folder level '" + level + "' would " + (level.equals(".")
            ? "not be a folder of its own" : "lead out of the partition, towards or beyond the table's folder"), false);
      }
      if (level.charAt(0) == '.') {
        // readers list partitions without hidden folders (.hoodie, staging folders): the rows would be committed
        // and never seen
        throw refused(field, value, "the folder level '" + PartitionPaths.shown(level).replace("\"", "")
            + "' starts with '.', a hidden folder no query lists", false);
      }
      if (level.length() > MAX_LEVEL_BYTES / 3 && level.getBytes(StandardCharsets.UTF_8).length > MAX_LEVEL_BYTES) {
        throw refused(field, value, "the folder name is " + level.getBytes(StandardCharsets.UTF_8).length
            + " bytes long, more than the " + MAX_LEVEL_BYTES + " a file system accepts", false);
      }
      if (slash < 0) {
        return;
      }
      from = slash + 1;
    }
  }

  /** {@code suggestEncoding}: URL-encoding would make the value safe, and it is off. */
  private static RuntimeException refused(String field, String value, String why, boolean suggestEncoding) {
    String hint = !suggestEncoding ? "" : " (or set hoodie.datasource.write.partitionpath.urlencode=true when creating"
        + " the table to have such characters escaped)";
    return Errors.badInput("partition path", field, "partition value " + shown(value) + " cannot be a folder of"
        + " the table: " + why, "a value that names a folder inside the table" + hint);
  }

  /** The value as the message shows it: quoted, control characters visible, long ones cut. */
  static String shown(String value) {
    StringBuilder sb = new StringBuilder("\"");
    int limit = Math.min(value.length(), 80);
    for (int i = 0; i < limit; i++) {
      char c = value.charAt(i);
      if (c < ' ') {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
    if (value.length() > limit) {
      sb.append("... (").append(value.length()).append(" characters)");
    }
    return sb.toString();
  }
}
