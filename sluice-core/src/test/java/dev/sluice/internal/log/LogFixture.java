package dev.sluice.internal.log;

import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.storage.AppendingStorage;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.ObservedInput;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** Test helpers: a schema with many Avro types, records of it, and storages that append or count reads. */
final class LogFixture {
  static final String FILE_ID = "35cb031b-b41b-4083-baf4-6c202b66d97c-0";
  static final String BASE = "20240101000000000";

  static final Schema LOC = SchemaBuilder.record("Loc").namespace("test").fields()
      .requiredDouble("lat").requiredDouble("lon").endRecord();
  static final Schema DECIMAL = LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
  static final Schema SCHEMA = SchemaBuilder.record("Trip").namespace("test").fields()
      .optionalString("_hoodie_commit_time")
      .optionalString("_hoodie_commit_seqno")
      .optionalString("_hoodie_record_key")
      .optionalString("_hoodie_partition_path")
      .optionalString("_hoodie_file_name")
      .requiredString("id")
      .requiredLong("ts")
      .requiredDouble("fare")
      .requiredFloat("rating")
      .requiredInt("count")
      .requiredBoolean("active")
      .requiredBytes("payload")
      .optionalString("note")
      .name("kind").type().enumeration("Kind").symbols("A", "B").noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .name("attrs").type().map().values().intType().noDefault()
      .name("loc").type(LOC).noDefault()
      .name("amount").type(DECIMAL).noDefault()
      .name("hash").type().fixed("Hash").size(4).noDefault()
      .endRecord();

  private LogFixture() {
  }

  /** A record of {@link #SCHEMA}; {@code n} varies every field. */
  static GenericRecord trip(String key, String partition, long ts, int n) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("_hoodie_commit_time", "001");
    r.put("_hoodie_commit_seqno", "001_0_" + n);
    r.put("_hoodie_record_key", key);
    r.put("_hoodie_partition_path", partition);
    r.put("_hoodie_file_name", FILE_ID);
    r.put("id", key);
    r.put("ts", ts);
    r.put("fare", n * 1.5);
    r.put("rating", n / 4f);
    r.put("count", n);
    r.put("active", n % 2 == 0);
    r.put("payload", ByteBuffer.wrap(new byte[] {(byte) n, 2, 3}));
    r.put("note", n % 3 == 0 ? null : "note " + n + " \u00e9\u4e2d");
    r.put("kind", new GenericData.EnumSymbol(SCHEMA.getField("kind").schema(), n % 2 == 0 ? "A" : "B"));
    r.put("tags", List.of("t" + n, "u"));
    r.put("attrs", Map.of("k" + n, n));
    GenericRecord loc = new GenericData.Record(LOC);
    loc.put("lat", 1.0 + n);
    loc.put("lon", -2.0 - n);
    r.put("loc", loc);
    r.put("amount", new Conversions.DecimalConversion().toBytes(new BigDecimal(n + ".25"), DECIMAL, DECIMAL.getLogicalType()));
    r.put("hash", new GenericData.Fixed(SCHEMA.getField("hash").schema(), new byte[] {1, 2, 3, (byte) n}));
    return r;
  }

  static List<GenericRecord> trips(String prefix, int count, long ts) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(trip(prefix + i, "p1", ts, i));
    }
    return out;
  }

  /** All blocks of a file. */
  static List<LogBlock> readAll(Storage storage, String path) {
    List<LogBlock> out = new ArrayList<>();
    try (LogReader r = LogReader.open(storage, path)) {
      r.forEachRemaining(out::add);
    }
    return out;
  }

  /** All records of a data block. */
  static List<GenericRecord> records(LogBlock block, Schema reader) {
    List<GenericRecord> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = ((DataBlock) block).records(reader)) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** The log files of the fixture's file id in {@code dir}, in log order. */
  static List<LogFile> logFiles(Storage storage, String dir) throws IOException {
    List<LogFile> out = new ArrayList<>();
    for (FileInfo f : storage.list(dir)) {
      Optional<LogFileName> n = FileNames.parseLog(f.name());
      if (n.isPresent()) {
        out.add(new LogFile(f.path(), f.name(), n.get().fileId(), n.get().baseInstant(), n.get().version(),
            n.get().writeToken().orElse(""), f.length()));
      }
    }
    out.sort(null);
    return out;
  }

  /** Local storage that can append, as HDFS can. */
  static Storage appendingStorage() {
    return new AppendingStorage(new LocalStorage());
  }

  /** Appending local storage whose every append fails with {@code failure} of the path. */
  static Storage appendsFailWith(Function<String, IOException> failure) {
    return new InterceptedStorage(appendingStorage(), call -> {
      if (call.op() == InterceptedStorage.Op.APPEND) {
        throw failure.apply(call.path());
      }
    });
  }

  /** Counts the files opened for reading and the bytes read from them. */
  static final class CountingStorage implements InterceptedStorage.Interceptor {
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong opens = new AtomicLong();
    private final Storage storage = new InterceptedStorage(new LocalStorage(), this);

    /** The storage whose reads are counted. */
    Storage storage() {
      return storage;
    }

    @Override
    public void before(InterceptedStorage.Call call) {
      if (call.op() == InterceptedStorage.Op.OPEN) {
        opens.incrementAndGet();
      }
    }

    @Override
    public SeekableInput opened(InterceptedStorage.Call call, SeekableInput in) {
      return ObservedInput.counting(in, bytesRead::addAndGet);
    }
  }

  /** The path of the fixture slice's log file {@code version} with {@code token}. */
  static String logPath(String dir, int version, String token) {
    return StoragePaths.join(dir, FileNames.logFileName(FILE_ID, BASE, version, token));
  }
}
