package dev.sluice.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;

/**
 * The expected content of a trips table, computed from the sequence of writes alone (not from any reader):
 * after each commit, key → latest version and the instant that wrote it, with event-time ordering (an incoming
 * version replaces the stored one unless the stored {@code ts} is larger; a delete always removes the key).
 */
final class WriteModel {
  /** A record version and the commit that wrote it. */
  record Version(String id, long ts, String part, String name, double amount, String commitTime) {
    /** Partition and key, as Hudi identifies a record. */
    String hoodieKey() {
      return part + "/" + id;
    }
  }

  private final TreeMap<String, Version> current = new TreeMap<>();
  private final TreeMap<String, Map<String, Version>> states = new TreeMap<>();

  /** Applies an insert or upsert committed at {@code instant}. */
  void upsert(Collection<GenericRecord> records, String instant) {
    for (GenericRecord r : records) {
      String id = r.get("id").toString();
      long ts = (Long) r.get("ts");
      Version stored = current.get(id);
      if (stored == null || stored.ts() <= ts) {
        Object name = r.get("name");
        current.put(id, new Version(id, ts, r.get("part").toString(), name == null ? null : name.toString(),
            (Double) r.get("amount"), instant));
      }
    }
    states.put(instant, Map.copyOf(current));
  }

  /** Applies a delete of {@code ids} committed at {@code instant}. */
  void delete(Collection<String> ids, String instant) {
    ids.forEach(current::remove);
    states.put(instant, Map.copyOf(current));
  }

  /** The table as of {@code time}: the state after the last commit at or before it. */
  Map<String, Version> asOf(String time) {
    Map.Entry<String, Map<String, Version>> e = states.floorEntry(time);
    return e == null ? Map.of() : e.getValue();
  }

  /** What an incremental query (begin, end] returns, by {@link Version#hoodieKey}: versions as of end written in the range. */
  Map<String, Version> incremental(String begin, String end) {
    Map<String, Version> out = new TreeMap<>();
    asOf(end).forEach((k, v) -> {
      if (v.commitTime().compareTo(begin) > 0 && v.commitTime().compareTo(end) <= 0) {
        out.put(v.hoodieKey(), v);
      }
    });
    return out;
  }

  /**
   * The records deleted over (begin, end], by {@link Version#hoodieKey}: a (partition, key) present as of begin and
   * absent as of end (a key re-inserted in another partition was deleted from its old one), as of begin.
   */
  Map<String, Version> deleted(String begin, String end) {
    Map<String, Version> out = new TreeMap<>();
    Map<String, Version> after = new TreeMap<>();
    asOf(end).values().forEach(v -> after.put(v.hoodieKey(), v));
    asOf(begin).values().forEach(v -> {
      if (!after.containsKey(v.hoodieKey())) {
        out.put(v.hoodieKey(), v);
      }
    });
    return out;
  }

  /** Keys present now. */
  List<String> liveKeys() {
    return new ArrayList<>(current.keySet());
  }

  /** The current version of a key. */
  Version get(String id) {
    return current.get(id);
  }

  /** The instants committed so far, oldest first. */
  List<String> instants() {
    return new ArrayList<>(states.keySet());
  }

  /** A row of a scan as a version (user columns and {@code _hoodie_commit_time}). */
  static Version of(GenericRecord r) {
    Object name = r.get("name");
    return new Version(r.get("id").toString(), (Long) r.get("ts"), r.get("part").toString(),
        name == null ? null : name.toString(), (Double) r.get("amount"), r.get("_hoodie_commit_time").toString());
  }

  /**
   * A random batch of writes for commit number {@code n}: new keys, updates of live keys with a larger ts, late
   * updates with a smaller ts than any written (the stored version wins), and re-inserts of deleted keys.
   */
  static List<GenericRecord> batch(Random rnd, WriteModel model, int n, int parts, TreeSet<String> deletedKeys) {
    List<GenericRecord> out = new ArrayList<>();
    TreeSet<String> used = new TreeSet<>();
    long ts = 1000L + n * 10L;
    int fresh = 2 + rnd.nextInt(4);
    for (int i = 0; i < fresh; i++) {
      String id = String.format("id-%03d-%d", n, i);
      out.add(TripFixture.trip(id, ts, "p" + rnd.nextInt(parts), "new-" + n, n + i * 0.5));
      used.add(id);
    }
    List<String> live = model.liveKeys();
    int updates = live.isEmpty() ? 0 : 1 + rnd.nextInt(Math.min(5, live.size()));
    for (int i = 0; i < updates; i++) {
      String id = live.get(rnd.nextInt(live.size()));
      if (used.add(id)) {
        Version v = model.get(id);
        boolean late = rnd.nextInt(4) == 0;
        out.add(TripFixture.trip(id, late ? 1 : ts, v.part(), (late ? "late-" : "upd-") + n, n * 2.0));
      }
    }
    if (!deletedKeys.isEmpty() && rnd.nextBoolean()) {
      String id = deletedKeys.pollFirst();
      out.add(TripFixture.trip(id, ts, "p" + rnd.nextInt(parts), "back-" + n, n * 3.0));
    }
    return out;
  }
}
