package dev.sluice.internal.mdt;

/**
 * The file group ids of Hudi 1.1's partitioned record index ({@code hoodie.metadata.record.level.index.enable}):
 * {@code record-index-<data partition, escaped>-NNNN-0}, a data partition's keys hashed among its own file groups
 * only. The partition is escaped as Hudi escapes file names: the characters of partition-path escaping, plus
 * {@code -} and {@code _}, as {@code %XX}, so the escaped part holds no dash and the id has exactly four.
 */
public final class RecordIndexFileGroups {
  /** The characters escaped besides the control characters below a space. */
  private static final String ESCAPED = "\"#%'*/:=?\\\u007f{[]^-_";

  private RecordIndexFileGroups() {
  }

  /** The id of file group {@code index} of data partition {@code dataPartition} ({@code ""} if not partitioned). */
  public static String fileId(String dataPartition, int index) {
    return String.format("record-index-%s-%04d-%d", escape(dataPartition), index, 0);
  }

  /** True if {@code fileId} belongs to a partitioned record index (four dashes; the global index's have three). */
  public static boolean isPartitioned(String fileId) {
    return fileId.chars().filter(c -> c == '-').count() == 4;
  }

  /**
   * The data partition of a partitioned record-index file group: the third part from the end of the id split at
   * dashes, its {@code %XX} escapes undone.
   */
  public static String dataPartitionOf(String fileId) {
    String[] parts = fileId.split("-");
    String escaped = parts.length > 3 ? parts[parts.length - 3] : "";
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c == '%' && i + 2 < escaped.length() && isHex(escaped.charAt(i + 1)) && isHex(escaped.charAt(i + 2))) {
        out.append((char) Integer.parseInt(escaped.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static String escape(String value) {
    StringBuilder sb = new StringBuilder(value.length() + 8);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < ' ' || ESCAPED.indexOf(c) >= 0) {
        sb.append('%').append(String.format("%02X", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0;
  }
}
