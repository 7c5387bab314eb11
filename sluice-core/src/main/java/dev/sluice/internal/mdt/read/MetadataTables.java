package dev.sluice.internal.mdt.read;

import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.Storage;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a data table's listings may come from its metadata table, and the file-system view that uses it.
 *
 * <p>The metadata table is used when reads have it enabled ({@code hoodie.metadata.enable}, default true), the data
 * table's {@code hoodie.table.metadata.partitions} lists {@code files}, the metadata table has a completed instant and
 * file groups in {@code files}, and it is consistent with the data table's timeline ({@link TrustRules#unmirrored}):
 * for a version-6 table every completed commit, deltacommit, replacecommit (compactions included), clean and rollback
 * of the data table after the metadata table's initialization has a completed metadata deltacommit at the same time,
 * and every completed restore a metadata restore sync ({@code <time>003}) after it; for versions 8 and 9 the same
 * without rollbacks (Hudi 1.x rolls back the failed write's metadata deltacommit instead), with a restore's sync at
 * any later time, and with the initialization covering the data instants completed before it. A writer that changed
 * the data table without mirroring the change (an older Sluice, a Hudi writer with the metadata table off) leaves an
 * instant without its deltacommit, and the listing falls back to storage. Otherwise the view lists storage.
 */
public final class MetadataTables {
  private static final Set<Action> MIRRORED = EnumSet.of(Action.COMMIT, Action.DELTACOMMIT, Action.REPLACECOMMIT,
      Action.CLEAN, Action.ROLLBACK, Action.RESTORE);
  private static final String RESTORE_SUFFIX = "003";
  private static final System.Logger LOG = System.getLogger(MetadataTables.class.getName());

  private MetadataTables() {
  }

  /**
   * Whether the metadata table is used, and why not when it is not.
   *
   * @param reader the reader, when the metadata table is used
   * @param reason why it is used or not, one sentence for {@code sluice metadata} and logs
   */
  public record Availability(Optional<MetadataTableReader> reader, String reason) {
    /** True if listings come from the metadata table. */
    public boolean available() {
      return reader.isPresent();
    }
  }

  /**
   * Checks the metadata table of the data table at {@code basePath} against the data table's active
   * {@code timeline}; {@code enabled} is {@code hoodie.metadata.enable}. Reads the metadata table's timeline (and
   * lists its {@code files} folder) only when the configuration allows it.
   */
  public static Availability check(Storage storage, String basePath, Timeline timeline, TableConfig config,
      boolean enabled) {
    if (!enabled) {
      return new Availability(Optional.empty(), "hoodie.metadata.enable=false: listing storage");
    }
    if (!config.metadataPartitions().contains(MetadataPartition.FILES.path())) {
      return new Availability(Optional.empty(), "hoodie.table.metadata.partitions does not list 'files': the table "
          + "has no usable metadata table");
    }
    Timeline metadata = MetadataTableReader.loadTimeline(storage, basePath, timeline);
    Optional<MetadataTableReader> reader = MetadataTableReader.open(storage, basePath, timeline, metadata);
    if (reader.isEmpty()) {
      return new Availability(Optional.empty(), "the metadata table has no completed instant");
    }
    Optional<Instant> missing = TrustRules.of(timeline).unmirrored(timeline, metadata);
    if (missing.isPresent()) {
      Instant i = missing.get();
      return new Availability(Optional.empty(), "the metadata table is behind the data table: its "
          + i.action().id() + " " + i.time() + " has no completed metadata deltacommit");
    }
    if (reader.get().fileSlices(MetadataPartition.FILES).isEmpty()) {
      return new Availability(Optional.empty(), "the metadata table's 'files' partition has no file group");
    }
    return new Availability(reader, "the metadata table is consistent with the timeline (latest metadata instant "
        + reader.get().latestInstant() + ")");
  }

  /**
   * The file-system view of the data table at {@code basePath} as of {@code timeline}: listings from the metadata
   * table if {@link #check} allows it, else from storage.
   */
  public static FileSystemView view(Storage storage, String basePath, Timeline timeline, TableConfig config,
      boolean enabled) {
    Availability a = check(storage, basePath, timeline, config, enabled);
    if (!a.available() && enabled && config.metadataPartitions().contains(MetadataPartition.FILES.path())) {
      // a metadata table the table lists but that cannot be trusted: say why the listing goes to storage
      LOG.log(System.Logger.Level.DEBUG, () -> "listing storage for " + basePath + ": " + a.reason());
    }
    return a.reader().map(r -> FileSystemView.of(storage, basePath, timeline, new MetadataListing(r, basePath)))
        .orElseGet(() -> FileSystemView.of(storage, basePath, timeline));
  }

  /** The first completed data-table instant after the metadata table's start that it has not mirrored. */
  static Optional<Instant> unmirrored(Timeline data, Timeline metadata) {
    Timeline completed = metadata.completed();
    Optional<Instant> first = completed.firstInstant();
    if (first.isEmpty()) {
      return data.completed().filter(i -> MIRRORED.contains(i.action())).firstInstant();
    }
    String start = first.get().time();
    // an initialization (<time>010, or 00000000000000010 on an empty table) covers the data instants up to its time;
    // so does any other instant of the metadata table's own (<time>001 compaction, <time>002 clean, ...) that is
    // first after its archival: the deltacommits up to <time> were archived, their blocks are in the slices
    boolean initialization = ValidInstants.isMetadataOwn(start) || start.startsWith(InstantTimes.INIT_INSTANT);
    String cutoff = start.length() > InstantTimes.MILLIS_LENGTH ? start.substring(0, InstantTimes.MILLIS_LENGTH) : start;
    Set<String> deltacommits = new HashSet<>();
    for (Instant i : completed.instants()) {
      if (i.action() == Action.DELTACOMMIT) {
        deltacommits.add(i.time());
      }
    }
    for (Instant i : data.completed().instants()) {
      if (!MIRRORED.contains(i.action())) {
        continue;
      }
      boolean after = initialization ? InstantTimes.isBefore(cutoff, i.time()) : InstantTimes.isBeforeOrEqual(cutoff, i.time());
      if (!after) {
        continue;
      }
      // a restore is mirrored by Hudi's sync <time>003 after it, or by Sluice's re-sync at the restore's own instant
      boolean mirrored = i.action() == Action.RESTORE
          ? deltacommits.contains(i.time()) || deltacommits.stream().anyMatch(t -> t.length() == InstantTimes.MILLIS_LENGTH + 3
              && t.endsWith(RESTORE_SUFFIX) && InstantTimes.isBeforeOrEqual(i.time(), t.substring(0, InstantTimes.MILLIS_LENGTH)))
          : deltacommits.contains(i.time());
      if (!mirrored) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }
}
