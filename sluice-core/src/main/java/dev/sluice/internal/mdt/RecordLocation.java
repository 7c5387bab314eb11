package dev.sluice.internal.mdt;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.UUID;

/**
 * Where the record index ({@code record_index}, type 5) says a record key lives: its data partition, its file
 * group and the instant that wrote it ({@code HoodieRecordIndexInfo}).
 *
 * @param partition the data partition's relative path ({@code ""} for a non-partitioned table)
 * @param fileId the file group's id
 * @param instantTime the writing instant ({@code yyyyMMddHHmmssSSS})
 */
public record RecordLocation(String partition, String fileId, String instantTime) {
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  /** Checks the parts. */
  public RecordLocation {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(instantTime, "instantTime");
  }

  /**
   * The instant as Hudi stores it: epoch milliseconds of the instant read as a local time in the JVM's default zone
   * (Hudi parses it so; the value is informational, tagging uses partition and file id). A 14-digit instant gets
   * 999 ms as in Hudi.
   */
  public long instantMillis() {
    String t = instantTime.length() == 14 ? instantTime + "999" : instantTime;
    return LocalDateTime.parse(t.substring(0, 17), MILLIS).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
  }

  /** The instant string of {@link #instantMillis} in the JVM's default zone. */
  static String instantOf(long millis) {
    return MILLIS.format(java.time.Instant.ofEpochMilli(millis).atZone(ZoneId.systemDefault()));
  }

  /**
   * The file id in Hudi's default encoding (0): a UUID followed by {@code -<n>}, or a bare UUID; empty when it is
   * neither, and encoding 1 (the raw string) applies.
   */
  java.util.Optional<UuidFileId> uuidForm() {
    String uuid;
    int index;
    if (fileId.length() == 36) {
      uuid = fileId;
      index = -1;
    } else if (fileId.length() > 37 && fileId.charAt(36) == '-') {
      uuid = fileId.substring(0, 36);
      try {
        index = Integer.parseInt(fileId.substring(37));
      } catch (NumberFormatException e) {
        return java.util.Optional.empty();
      }
      if (index < 0 || !fileId.substring(37).equals(Integer.toString(index))) {
        return java.util.Optional.empty();
      }
    } else {
      return java.util.Optional.empty();
    }
    try {
      UUID u = UUID.fromString(uuid);
      // UUID.fromString accepts short groups; only the canonical text round-trips
      return u.toString().equals(uuid) ? java.util.Optional.of(new UuidFileId(u.getMostSignificantBits(),
          u.getLeastSignificantBits(), index)) : java.util.Optional.empty();
    } catch (IllegalArgumentException e) {
      return java.util.Optional.empty();
    }
  }

  /** A file id in encoding 0: the UUID's two halves and the index after it (-1 for none). */
  record UuidFileId(long high, long low, int index) {
    String fileId() {
      String u = new UUID(high, low).toString();
      return index == -1 ? u : u + "-" + index;
    }
  }
}
