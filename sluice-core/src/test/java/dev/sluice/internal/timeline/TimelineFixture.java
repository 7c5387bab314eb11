package dev.sluice.internal.timeline;

import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Test helper that lays down timeline files (and, for file system view tests, data files) in a temp table
 * folder, fluently: {@code TimelineFixture.at(dir).completedCommit("001").inflightDeltaCommit("002")}.
 * Completed commits get valid (empty) commit metadata JSON; compaction plans are Avro files with the
 * {@code HoodieCompactionPlan} fields that readers use.
 */
public final class TimelineFixture {
  private final Path base;
  private final Storage storage = new LocalStorage();
  private final TimelineStore store;

  private TimelineFixture(Path base) {
    this.base = base;
    this.store = new TimelineStore(storage, base.toString());
    try {
      Files.createDirectories(base.resolve(".hoodie"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A fixture for the table at {@code base} (creates {@code .hoodie}). */
  public static TimelineFixture at(Path base) {
    return new TimelineFixture(base);
  }

  /** The table's base path. */
  public String basePath() {
    return base.toString();
  }

  /** The storage used. */
  public Storage storage() {
    return storage;
  }

  /** The store of the table's timeline. */
  public TimelineStore store() {
    return store;
  }

  /** Loads the timeline now on disk. */
  public Timeline timeline() {
    return store.load();
  }

  /** Writes one state file with the given content. */
  public TimelineFixture instantFile(Instant instant, byte[] content) {
    try {
      Files.write(base.resolve(".hoodie").resolve(instant.fileName()), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  private TimelineFixture states(String ts, Action action, State upTo, byte[] completedContent) {
    if (action != Action.SAVEPOINT) {
      instantFile(Instant.requested(ts, action), new byte[0]);
    }
    if (upTo.compareTo(State.INFLIGHT) >= 0) {
      instantFile(Instant.inflight(ts, action), new byte[0]);
    }
    if (upTo == State.COMPLETED) {
      instantFile(Instant.completed(ts, action), completedContent);
    }
    return this;
  }

  private static byte[] emptyCommit(WriteOperationType op) {
    return new CommitMetadata(Map.of(), false, Map.of(), op).toJson();
  }

  /** requested + inflight + completed commit with empty metadata. */
  public TimelineFixture completedCommit(String ts) {
    return states(ts, Action.COMMIT, State.COMPLETED, emptyCommit(WriteOperationType.UPSERT));
  }

  /** A completed commit with the given metadata. */
  public TimelineFixture completedCommit(String ts, CommitMetadata metadata) {
    return states(ts, Action.COMMIT, State.COMPLETED, metadata.toJson());
  }

  /** requested + inflight commit (a running or failed write). */
  public TimelineFixture inflightCommit(String ts) {
    return states(ts, Action.COMMIT, State.INFLIGHT, null);
  }

  /** requested commit only. */
  public TimelineFixture requestedCommit(String ts) {
    return states(ts, Action.COMMIT, State.REQUESTED, null);
  }

  /** requested + inflight + completed deltacommit with empty metadata. */
  public TimelineFixture completedDeltaCommit(String ts) {
    return states(ts, Action.DELTACOMMIT, State.COMPLETED, emptyCommit(WriteOperationType.UPSERT));
  }

  /** A completed deltacommit with the given metadata. */
  public TimelineFixture completedDeltaCommit(String ts, CommitMetadata metadata) {
    return states(ts, Action.DELTACOMMIT, State.COMPLETED, metadata.toJson());
  }

  /** requested + inflight deltacommit. */
  public TimelineFixture inflightDeltaCommit(String ts) {
    return states(ts, Action.DELTACOMMIT, State.INFLIGHT, null);
  }

  /** requested deltacommit only. */
  public TimelineFixture requestedDeltaCommit(String ts) {
    return states(ts, Action.DELTACOMMIT, State.REQUESTED, null);
  }

  /** A requested compaction whose plan covers the given file groups. */
  public TimelineFixture requestedCompaction(String ts, FileGroupId... groups) {
    return instantFile(Instant.requested(ts, Action.COMPACTION), compactionPlan(ts, Arrays.asList(groups)));
  }

  /** A requested + inflight compaction whose plan covers the given file groups. */
  public TimelineFixture inflightCompaction(String ts, FileGroupId... groups) {
    requestedCompaction(ts, groups);
    return instantFile(Instant.inflight(ts, Action.COMPACTION), new byte[0]);
  }

  /** A completed compaction: plan, inflight, and the {@code <ts>.commit} with {@code compacted:true}. */
  public TimelineFixture completedCompaction(String ts, FileGroupId... groups) {
    inflightCompaction(ts, groups);
    return instantFile(Instant.completed(ts, Action.COMMIT),
        new CommitMetadata(Map.of(), true, Map.of(), WriteOperationType.COMPACT).toJson());
  }

  /** A completed replacecommit replacing the given file groups. */
  public TimelineFixture completedReplaceCommit(String ts, FileGroupId... replaced) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    for (FileGroupId g : replaced) {
      m.computeIfAbsent(g.partitionPath(), k -> new ArrayList<>()).add(g.fileId());
    }
    CommitMetadata md = new CommitMetadata(Map.of(), false, Map.of(), WriteOperationType.INSERT_OVERWRITE,
        Optional.of(m));
    return states(ts, Action.REPLACECOMMIT, State.COMPLETED, md.toJson());
  }

  /** requested + inflight replacecommit. */
  public TimelineFixture inflightReplaceCommit(String ts) {
    return states(ts, Action.REPLACECOMMIT, State.INFLIGHT, null);
  }

  /** A completed clean (empty content; readers of the timeline do not open it). */
  public TimelineFixture completedClean(String ts) {
    return states(ts, Action.CLEAN, State.COMPLETED, new byte[0]);
  }

  /** A completed savepoint (inflight + completed files). */
  public TimelineFixture savepoint(String ts) {
    return states(ts, Action.SAVEPOINT, State.COMPLETED, new byte[0]);
  }

  /** Writes a data file (any name) with {@code size} bytes in {@code partition} ("" = base path). */
  public TimelineFixture dataFile(String partition, String fileName, int size) {
    try {
      Path dir = partition.isEmpty() ? base : base.resolve(partition);
      Files.createDirectories(dir);
      Files.write(dir.resolve(fileName), new byte[size]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  /** Writes {@code .hoodie_partition_metadata} into {@code partition} ("" = base path). */
  public TimelineFixture partition(String partition) {
    int depth = partition.isEmpty() ? 0 : partition.split("/").length;
    String text = "#partition metadata\ncommitTime=00000000000000\npartitionDepth=" + depth + "\n";
    return dataFileText(partition, ".hoodie_partition_metadata", text);
  }

  private TimelineFixture dataFileText(String partition, String fileName, String text) {
    try {
      Path dir = partition.isEmpty() ? base : base.resolve(partition);
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(fileName), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  private static final Schema OPERATION = SchemaBuilder.record("HoodieCompactionOperation")
      .namespace("org.apache.hudi.avro.model").fields()
      .name("baseInstantTime").type().unionOf().nullType().and().stringType().endUnion().noDefault()
      .name("deltaFilePaths").type().unionOf().nullType().and().array().items().stringType().endUnion().nullDefault()
      .name("dataFilePath").type().unionOf().nullType().and().stringType().endUnion().nullDefault()
      .name("fileId").type().unionOf().nullType().and().stringType().endUnion().noDefault()
      .name("partitionPath").type().unionOf().nullType().and().stringType().endUnion().nullDefault()
      .endRecord();
  private static final Schema PLAN = SchemaBuilder.record("HoodieCompactionPlan")
      .namespace("org.apache.hudi.avro.model").fields()
      .name("operations").type().unionOf().nullType().and().array().items(OPERATION).endUnion().nullDefault()
      .name("version").type().unionOf().intType().and().nullType().endUnion().intDefault(2)
      .endRecord();

  /** An Avro container holding a compaction plan over {@code groups}. */
  public static byte[] compactionPlan(String ts, List<FileGroupId> groups) {
    List<GenericRecord> ops = new ArrayList<>();
    for (FileGroupId g : groups) {
      GenericRecord op = new GenericData.Record(OPERATION);
      op.put("baseInstantTime", ts);
      op.put("fileId", g.fileId());
      op.put("partitionPath", g.partitionPath());
      ops.add(op);
    }
    GenericRecord plan = new GenericData.Record(PLAN);
    plan.put("operations", ops);
    plan.put("version", 2);
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(PLAN))) {
      w.create(PLAN, bos);
      w.append(plan);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bos.toByteArray();
  }
}
