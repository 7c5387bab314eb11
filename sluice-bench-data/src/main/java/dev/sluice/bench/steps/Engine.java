package dev.sluice.bench.steps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.avro.generic.GenericRecord;

/**
 * What a benchmark step asks of a table engine (Sluice, or Apache Hudi's Java client). The {@link StepRunner}
 * drives both through this interface, so everything around the engine calls (inputs, timing, heap, bytes,
 * checks) is the same code on both sides.
 */
public interface Engine {
  /** Write operations. */
  enum Op {
    /** Bulk insert: no index lookup. */
    BULK_INSERT,
    /** Insert. */
    INSERT,
    /** Upsert: updates of existing keys, inserts of new ones. */
    UPSERT,
    /** Delete the keys of the records. */
    DELETE
  }

  /** Short name: {@code sluice} or {@code hudi}. */
  String name();

  /** Creates an empty table (record key {@code key}, ordering {@code ts}, partition {@code part}). */
  void create(Path table, boolean mergeOnRead);

  /** One commit of {@code op} over {@code records} (records of {@code BenchRecords.SCHEMA}). */
  void write(Path table, Op op, List<GenericRecord> records);

  /**
   * Called before the clock of a write of {@code records} starts: an engine whose API takes its input in another
   * form than a list of records may build it here, so the step times the write and not the conversion. Only the
   * Spark engines do (the same Dataset, materialised, on both sides); the default does nothing.
   */
  default void stage(List<GenericRecord> records) {
  }

  /**
   * Called before the clock of a read of {@code table} starts: an engine that is not a table format (the plain
   * Parquet reference of the Spark workloads) finds here, untimed, which files the read covers, so the step times
   * reading them and not the finding. The table formats plan inside the read, as their users' queries do; the
   * default does nothing.
   */
  default void prepareRead(Path table, boolean snapshot) {
  }

  /**
   * False for an engine without upserts (plain Parquet): its warm-up before a read reads the bulk-inserted table
   * instead of one after delta commits.
   */
  default boolean upserts() {
    return true;
  }

  /**
   * One bulk-insert commit of the records {@code records} yields (a chunk of the scale workload's initial load).
   * This default collects them into a list first, as an engine whose API takes a list must (Hudi's Java client); an
   * engine that takes an iterator overrides it and never holds the chunk.
   */
  default void load(Path table, Iterator<GenericRecord> records) {
    List<GenericRecord> all = new ArrayList<>();
    records.forEachRemaining(all::add);
    write(table, Op.BULK_INSERT, all);
  }

  /**
   * Reads every row of the snapshot ({@code snapshot}) or read-optimized view, all columns, as Avro records.
   *
   * @return rows read and the sum of their {@code ts} values (so both engines can be checked against each other)
   */
  ReadResult read(Path table, boolean snapshot);

  /** Runs a compaction of every file group with log files; false if the engine cannot compact. */
  boolean compact(Path table);

  /** A session of point lookups on the table as it is now. */
  KeyLookup openLookup(Path table);

  /**
   * Rows and checksum of a read.
   *
   * @param rows rows read
   * @param tsSum sum of the {@code ts} field over the rows
   */
  record ReadResult(long rows, long tsSum) {
  }

  /** Point lookups by record key. */
  interface KeyLookup extends AutoCloseable {
    /** Looks one key up in its partition; true if a row was found (its fields are read). */
    boolean find(String key, String partition);

    /** Base files the index opened so far (footers, key columns); -1 if the engine does not say. */
    long indexFilesOpened();

    /** Base files read for rows so far. */
    long dataFilesOpened();

    @Override
    void close();
  }
}
