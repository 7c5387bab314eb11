package dev.sluice.internal.mdt.read;

import dev.sluice.internal.fsview.BaseFileName;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.fsview.StorageListing;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The metadata table's listing against a listing of storage ({@code hudi-cli metadata validate-files}): partitions
 * one side has and the other not, files likewise, and sizes that differ. Storage files of instants still pending on
 * the data table's timeline (a running or failed write, a compaction in progress) are left out: the metadata table
 * lists a write's files only when it commits. A partition folder on storage without committed data files (left by a
 * rolled-back write that created it) is not a difference: the metadata table lists partitions that commits wrote to,
 * and there is nothing in it to read.
 */
public final class ListingCheck {
  /** What differs. */
  public enum Kind {
    /** On storage, not in the metadata table. */
    MISSING_PARTITION,
    /** In the metadata table, not on storage. */
    EXTRA_PARTITION,
    /** On storage, not in the metadata table. */
    MISSING_FILE,
    /** In the metadata table, not on storage. */
    EXTRA_FILE,
    /** Both, with different sizes. */
    SIZE_MISMATCH
  }

  /**
   * One difference.
   *
   * @param kind what differs
   * @param partition relative partition path
   * @param file the file name, empty for partitions
   * @param metadataSize the recorded size
   * @param storageSize the size on storage
   */
  public record Difference(Kind kind, String partition, Optional<String> file, Optional<Long> metadataSize,
      Optional<Long> storageSize) {
  }

  /**
   * The result of a check.
   *
   * @param partitions partitions compared (on either side)
   * @param files files compared (on either side)
   * @param differences what differs, by partition then file
   */
  public record Result(int partitions, long files, List<Difference> differences) {
  }

  private ListingCheck() {
  }

  /** Compares {@code reader}'s listing with storage's for the data table at {@code basePath} as of {@code timeline}. */
  public static Result compare(MetadataTableReader reader, Storage storage, String basePath, Timeline timeline) {
    StorageListing listing = new StorageListing(storage, basePath);
    TreeSet<String> onStorage = new TreeSet<>(listing.partitions());
    TreeSet<String> inTable = new TreeSet<>(reader.partitions());
    TreeSet<String> all = new TreeSet<>(onStorage);
    all.addAll(inTable);
    Map<String, List<MetadataFile>> tableFiles = reader.files(all);
    List<Difference> out = new ArrayList<>();
    long files = 0;
    for (String p : all) {
      Map<String, Long> stored = new TreeMap<>();
      if (onStorage.contains(p)) {
        for (FileInfo f : listing.files(p)) {
          if (!f.directory() && FileNames.isDataFileCandidate(f.name()) && !pending(f.name(), timeline)) {
            stored.put(f.name(), f.length());
          }
        }
      }
      Map<String, Long> listed = new TreeMap<>();
      for (MetadataFile f : tableFiles.getOrDefault(p, List.of())) {
        listed.put(f.name(), f.size());
      }
      if (!inTable.contains(p) && !stored.isEmpty()) {
        out.add(new Difference(Kind.MISSING_PARTITION, p, Optional.empty(), Optional.empty(), Optional.empty()));
      } else if (!onStorage.contains(p)) {
        out.add(new Difference(Kind.EXTRA_PARTITION, p, Optional.empty(), Optional.empty(), Optional.empty()));
      }
      TreeSet<String> names = new TreeSet<>(stored.keySet());
      names.addAll(listed.keySet());
      files += names.size();
      for (String n : names) {
        Long s = stored.get(n);
        Long m = listed.get(n);
        if (m == null) {
          out.add(new Difference(Kind.MISSING_FILE, p, Optional.of(n), Optional.empty(), Optional.of(s)));
        } else if (s == null) {
          out.add(new Difference(Kind.EXTRA_FILE, p, Optional.of(n), Optional.of(m), Optional.empty()));
        } else if (!s.equals(m)) {
          out.add(new Difference(Kind.SIZE_MISMATCH, p, Optional.of(n), Optional.of(m), Optional.of(s)));
        }
      }
    }
    return new Result(all.size(), files, List.copyOf(out));
  }

  /** True if the file's instant (a base file's, a log file's base instant) is requested or inflight on the timeline. */
  private static boolean pending(String name, Timeline timeline) {
    Optional<String> instant = FileNames.parseBase(name).map(BaseFileName::instantTime)
        .or(() -> FileNames.parseLog(name).map(LogFileName::baseInstant));
    return instant.filter(t -> timeline.isInflight(t) && !timeline.isCompleted(t)).isPresent();
  }
}
