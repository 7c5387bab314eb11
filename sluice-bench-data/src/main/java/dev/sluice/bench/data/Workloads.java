package dev.sluice.bench.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * The batches of the benchmark workloads, all derived from one seed. A table is built from records
 * {@code 0 .. n-1} ({@link #initial}); later batches name records by index, so both engines see the same keys,
 * values and order.
 *
 * <p>An upsert batch ({@link #upsert}) holds {@code size / 2} updates of distinct existing records drawn uniformly
 * from the whole table (so they hit every file group) and {@code size - size / 2} new records, the next unused
 * indexes; the two are interleaved in a seeded random order. Batch {@code b} writes version {@code b} of the records
 * it updates, so its ordering values beat every earlier version.
 */
public final class Workloads {
  private static final long UPSERT_SALT = 0x1F2E3D4C5B6A7988L;
  private static final long DELETE_SALT = 0x0123456789ABCDEFL;
  private static final long LOOKUP_SALT = 0x7A7A7A7A13579BDFL;
  private static final long UPDATE_SALT = 0x3C6EF372FE94F82BL;

  private final BenchRecords records;

  /** Workloads of {@code seed}. */
  public Workloads(long seed) {
    this.records = new BenchRecords(seed);
  }

  /** The record generator. */
  public BenchRecords records() {
    return records;
  }

  /** Records {@code 0 .. n-1}, version 0, in index order. */
  public List<GenericRecord> initial(long n) {
    List<GenericRecord> out = new ArrayList<>((int) n);
    for (long i = 0; i < n; i++) {
      out.add(records.record(i, 0));
    }
    return out;
  }

  /**
   * Records {@code from .. to-1}, version 0, in index order, generated one at a time as the iterator is consumed:
   * a table of any size can be loaded without holding its records (the scale workload's source).
   */
  public Iterator<GenericRecord> stream(long from, long to) {
    if (from < 0 || to < from) {
      throw new IllegalArgumentException("bad record range " + from + ".." + to);
    }
    return new Iterator<>() {
      private long next = from;

      @Override
      public boolean hasNext() {
        return next < to;
      }

      @Override
      public GenericRecord next() {
        if (next >= to) {
          throw new NoSuchElementException("records " + from + ".." + to + " are exhausted");
        }
        return records.record(next++, 0);
      }
    };
  }

  /**
   * Update batch number {@code batch} (1, 2, ...) of the scale workload: {@code count} distinct existing records
   * of a table holding records {@code 0 .. tableSize-1}, drawn uniformly (so they scatter over every partition and
   * file group), in draw order, each as version {@code batch}. No new keys: the table keeps its size.
   */
  public List<GenericRecord> updates(int batch, long tableSize, int count) {
    List<GenericRecord> out = new ArrayList<>(count);
    for (long i : sample(tableSize, count, UPDATE_SALT + batch)) {
      out.add(records.record(i, batch));
    }
    return out;
  }

  /**
   * The sum of {@code ts} over a table of records {@code 0 .. tableSize-1} after update batches {@code 1 ..
   * batches} of {@code count} records each ({@link #updates}): every record at the latest version that touched it.
   * Long arithmetic wraps, as the engines' sums do, so equal sums stay equal.
   */
  public long tsSumAfterUpdates(long tableSize, int batches, int count) {
    Map<Long, Integer> latest = new HashMap<>();
    for (int b = 1; b <= batches; b++) {
      for (long i : sample(tableSize, count, UPDATE_SALT + b)) {
        latest.put(i, b);
      }
    }
    // sum of i over 0..n-1, then each updated record's version stride on top
    long sum = tableSize % 2 == 0 ? (tableSize / 2) * (tableSize - 1) : tableSize * ((tableSize - 1) / 2);
    for (Map.Entry<Long, Integer> e : latest.entrySet()) {
      sum += BenchRecords.ordering(e.getKey(), e.getValue()) - e.getKey();
    }
    return sum;
  }

  /**
   * Upsert batch number {@code batch} (1, 2, ...) against a table holding records {@code 0 .. tableSize-1}: half
   * updates, half new keys {@code tableSize ..}. After it the table holds {@code tableSize + (size - size / 2)}
   * records.
   */
  public List<GenericRecord> upsert(int batch, long tableSize, int size) {
    int updates = size / 2;
    int inserts = size - updates;
    List<Long> indexes = sample(tableSize, updates, UPSERT_SALT + batch);
    for (long i = 0; i < inserts; i++) {
      indexes.add(tableSize + i);
    }
    shuffle(indexes, new Mix.Stream(records.seed() ^ UPSERT_SALT ^ (batch * Mix.GOLDEN)));
    List<GenericRecord> out = new ArrayList<>(indexes.size());
    for (long i : indexes) {
      out.add(records.record(i, batch));
    }
    return out;
  }

  /** Table size after {@code batches} upsert batches of {@code size} records on an initial table of {@code n}. */
  public static long sizeAfter(long n, int batches, int size) {
    return n + (long) batches * (size - size / 2);
  }

  /** {@code count} distinct existing records (version 0) to delete, drawn uniformly from {@code 0 .. tableSize-1}. */
  public List<GenericRecord> deletes(long tableSize, int count) {
    List<GenericRecord> out = new ArrayList<>(count);
    for (long i : sample(tableSize, count, DELETE_SALT)) {
      out.add(records.record(i, 0));
    }
    return out;
  }

  /** Indexes of {@code count} distinct existing records to look up by key. */
  public List<Long> lookups(long tableSize, int count) {
    return sample(tableSize, count, LOOKUP_SALT);
  }

  /** {@code count} distinct values of {@code [0, bound)}, in draw order. */
  private List<Long> sample(long bound, int count, long salt) {
    if (count > bound) {
      throw new IllegalArgumentException("cannot draw " + count + " distinct records from " + bound);
    }
    Mix.Stream r = new Mix.Stream(records.seed() * 31 + salt);
    Set<Long> seen = new HashSet<>();
    List<Long> out = new ArrayList<>(count);
    while (out.size() < count) {
      long i = r.nextLong(bound);
      if (seen.add(i)) {
        out.add(i);
      }
    }
    return out;
  }

  private static void shuffle(List<Long> list, Mix.Stream r) {
    for (int i = list.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      Long t = list.get(i);
      list.set(i, list.get(j));
      list.set(j, t);
    }
  }

  /**
   * SHA-256 (hex) of the records' Avro binary encoding, in order: equal on both sides means both engines got the
   * same input.
   */
  public static String digest(List<GenericRecord> batch) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    BinaryEncoder encoder = null;
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(BenchRecords.SCHEMA);
    try {
      for (GenericRecord r : batch) {
        bytes.reset();
        encoder = EncoderFactory.get().binaryEncoder(bytes, encoder);
        writer.write(r, encoder);
        encoder.flush();
        sha.update(bytes.toByteArray());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder hex = new StringBuilder();
    for (byte b : sha.digest()) {
      hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return hex.toString();
  }
}
