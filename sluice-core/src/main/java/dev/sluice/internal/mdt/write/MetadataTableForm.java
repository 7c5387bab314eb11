package dev.sluice.internal.mdt.write;

import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the metadata table's own instants are timed and what its deltacommits record, the seam between table version 6
 * (Hudi 0.15: instants of the data table's times with a three-digit suffix, {@code <t>010} initialization,
 * {@code <t>001} compaction, {@code <t>002} clean, {@code <t>006} rollback; a log file version per deltacommit in the
 * slice's series) and versions 8 and 9 (Hudi 1.x, {@code HoodieBackedTableMetadataWriter} 1.1.1: 17-digit times,
 * initialization at {@code 00000000000000000} plus one millisecond per partition already there, compaction and clean
 * at new times, a data-table rollback mirrored by a metadata rollback at the same instant, one log file per
 * deltacommit named after it). Chosen from the data table's timeline layout, like {@code fsview.LogPlacement}.
 */
public sealed interface MetadataTableForm permits MetadataTableForm.Suffixed, MetadataTableForm.Fresh {

  /** The seam of a data table whose timeline has {@code layout}. */
  static MetadataTableForm of(TimelineLayout layout) {
    return layout.slicesByCompletionTime() ? new Fresh(layout) : new Suffixed();
  }

  /** The metadata table's {@code hoodie.properties} for the data table whose config is {@code data}. */
  TableConfig properties(TableConfig data);

  /**
   * The instant that initializes a metadata partition ({@code offset}: how many initialization instants the metadata
   * table has already) given the data table's timeline {@code dt}.
   */
  String init(Timeline dt, int offset);

  /** The data-table time up to which a bootstrap lists files: files of later instants are mirrored by their own. */
  String listedUpTo(Timeline dt);

  /** True if {@code time} is an initialization instant of this scheme. */
  boolean isInit(String time);

  /**
   * The instant of a metadata compaction after the latest deltacommit {@code latestDeltacommit} of the metadata
   * timeline {@code mdt}.
   */
  String compaction(String latestDeltacommit, Timeline mdt);

  /** The instant of a metadata clean after the latest deltacommit {@code latestDeltacommit} of {@code mdt}. */
  String clean(String latestDeltacommit, Timeline mdt);

  /** The instant of the metadata rollback that mirrors the data-table rollback at {@code rollbackTime}. */
  String rollback(String rollbackTime);

  /** The instant of the re-sync deltacommit of a data-table restore at {@code restoreTime}, given {@code mdt}. */
  String restoreSync(String restoreTime, Timeline mdt);

  /**
   * True if a data-table rollback is also mirrored by a deltacommit at its own instant (version 6: the rollback's
   * log files; 1.x: the rollback deletes files, and the metadata rollback at that instant is the whole mirror).
   */
  boolean mirrorsRollbackAsDeltacommit();

  /**
   * True if a base file of the metadata instant {@code baseInstant} (an initialization or a compaction of the metadata
   * timeline {@code mdt}) already holds what the data-table instant {@code target} wrote, so that no rollback block
   * or deleted log file can take it out again.
   */
  boolean baseHolds(String baseInstant, String target, Timeline mdt);

  /**
   * The log files a deltacommit's write stat names: the slice's logs so far and the new one (version 6), or the
   * deltacommit's own file only (1.x, {@code HoodieAppendHandle}).
   */
  List<String> statLogFiles(List<String> sliceLogs, String newLog);

  /** Version 6 (Hudi 0.15's suffixes). */
  record Suffixed() implements MetadataTableForm {
    /** Suffix of a metadata clean's instant. */
    static final String CLEAN_SUFFIX = "002";

    @Override
    public TableConfig properties(TableConfig data) {
      return Bootstrap.config(data.name());
    }

    @Override
    public String init(Timeline dt, int offset) {
      return listedUpTo(dt) + String.format("%03d", Integer.parseInt(MetadataTableWriter.INIT_SUFFIX) + offset);
    }

    @Override
    public String listedUpTo(Timeline dt) {
      return dt.lastCompleted().map(Instant::time).orElse(MetadataTableWriter.SOLO_COMMIT);
    }

    @Override
    public boolean isInit(String time) {
      return time.length() == InstantTimes.MILLIS_LENGTH + 3
          && time.substring(InstantTimes.MILLIS_LENGTH).compareTo(MetadataTableWriter.INIT_SUFFIX) >= 0;
    }

    @Override
    public String compaction(String latestDeltacommit, Timeline mdt) {
      return latestDeltacommit + FilesCompaction.SUFFIX;
    }

    @Override
    public String clean(String latestDeltacommit, Timeline mdt) {
      return latestDeltacommit + CLEAN_SUFFIX;
    }

    @Override
    public String rollback(String rollbackTime) {
      return rollbackTime + MetadataTableWriter.ROLLBACK_SUFFIX;
    }

    @Override
    public String restoreSync(String restoreTime, Timeline mdt) {
      return restoreTime;
    }

    @Override
    public boolean mirrorsRollbackAsDeltacommit() {
      return true;
    }

    @Override
    public boolean baseHolds(String baseInstant, String target, Timeline mdt) {
      // suffixed instants sort after the data instant they follow: <t>010 holds t and before, <t>001 likewise
      return target.compareTo(baseInstant) < 0;
    }

    @Override
    public List<String> statLogFiles(List<String> sliceLogs, String newLog) {
      java.util.TreeSet<String> all = new java.util.TreeSet<>(sliceLogs);
      all.add(newLog);
      return List.copyOf(all);
    }
  }

  /**
   * Versions 8 and 9 (Hudi 1.x): new instant times of the data table's clock (its time zone), strictly after the
   * latest time the metadata timeline holds, so that a compaction's base instant is after every completed
   * deltacommit it folds in.
   *
   * @param layout the data table's layout (its clock)
   */
  record Fresh(TimelineLayout layout) implements MetadataTableForm {
    /** The first initialization instant ({@code instantTimePlusMillis(SOLO_COMMIT_TIMESTAMP, 0)}). */
    static final String INIT = "00000000000000000";

    /**
     * As Hudi 1.1.1 writes a metadata table's properties (observed on the golden table {@code
     * mor_v9_with_metadata_table}): the data table's version as version and initial version, timeline layout 2 with
     * its paths, the metadata payload under {@code CUSTOM} merging with the payload-based strategy, the metadata key
     * generator by type; the data table's time zone, so both timelines take times of one clock.
     */
    @Override
    public TableConfig properties(TableConfig data) {
      Map<String, String> p = new LinkedHashMap<>();
      p.put(TableConfig.PAYLOAD_CLASS, "org.apache.hudi.metadata.HoodieMetadataPayload");
      p.put(TableConfig.INITIAL_VERSION, Integer.toString(layout.tableVersion()));
      p.put(TableConfig.KEY_GENERATOR_TYPE, "HOODIE_TABLE_METADATA");
      p.put(TableConfig.TYPE, "MERGE_ON_READ");
      p.put(TableConfig.ARCHIVELOG_FOLDER, "history");
      p.put(TableConfig.TIMELINE_LAYOUT_VERSION, "2");
      p.put(TableConfig.TIMELINE_HISTORY_PATH, "history");
      p.put(TableConfig.DROP_PARTITION_COLUMNS, "false");
      p.put(TableConfig.RECORD_MERGE_STRATEGY_ID, "00000000-0000-0000-0000-000000000000");
      p.put(TableConfig.RECORDKEY_FIELDS, MetadataRecords.KEY);
      p.put(TableConfig.NAME, data.name() + "_metadata");
      p.put(TableConfig.TIMELINE_PATH, "timeline");
      p.put(TableConfig.POPULATE_META_FIELDS, "false");
      p.put(TableConfig.BASE_FILE_FORMAT, "HFILE");
      p.put(TableConfig.RECORD_MERGE_MODE, "CUSTOM");
      p.put(TableConfig.VERSION, Integer.toString(layout.tableVersion()));
      data.get(TableConfig.TIMELINE_TIMEZONE).ifPresent(z -> p.put(TableConfig.TIMELINE_TIMEZONE, z));
      return TableConfig.of(p);
    }

    @Override
    public String init(Timeline dt, int offset) {
      return String.format("%0" + InstantTimes.MILLIS_LENGTH + "d", offset);
    }

    @Override
    public String listedUpTo(Timeline dt) {
      // the bootstrap lists the files of instants up to the latest completed one (initializeFromFilesystem 1.1.1)
      return dt.lastCompleted().map(Instant::time).orElse(INIT);
    }

    @Override
    public boolean isInit(String time) {
      return time.length() == InstantTimes.MILLIS_LENGTH && time.startsWith("0000000000");
    }

    @Override
    public String compaction(String latestDeltacommit, Timeline mdt) {
      return after(mdt);
    }

    @Override
    public String clean(String latestDeltacommit, Timeline mdt) {
      return after(mdt);
    }

    @Override
    public String rollback(String rollbackTime) {
      return rollbackTime;
    }

    @Override
    public String restoreSync(String restoreTime, Timeline mdt) {
      return after(mdt);
    }

    @Override
    public boolean mirrorsRollbackAsDeltacommit() {
      return false;
    }

    @Override
    public boolean baseHolds(String baseInstant, String target, Timeline mdt) {
      if (!isInit(baseInstant)) {
        // a compaction takes a time after every instant of the metadata timeline: it holds every earlier one
        return target.compareTo(baseInstant) < 0;
      }
      // an initialization instant sorts before every data instant: it holds the data instants that were complete
      // when it completed (a bootstrap runs only with none pending, under the lock), i.e. those requested before its
      // completion time; with that time gone from the active timeline (archived) it is taken to hold them all
      return mdt.completionTime(baseInstant).map(c -> target.compareTo(c) < 0).orElse(true);
    }

    @Override
    public List<String> statLogFiles(List<String> sliceLogs, String newLog) {
      return List.of(newLog);
    }

    // a time of the clock after every requested and completion time of the metadata timeline
    private String after(Timeline mdt) {
      String latest = "";
      for (Instant i : mdt.instants()) {
        String t = mdt.completionTime(i).filter(c -> c.compareTo(i.time()) > 0).orElse(i.time());
        latest = t.compareTo(latest) > 0 ? t : latest;
      }
      return layout.newCompletionTime(latest).orElseThrow();
    }
  }
}
