package dev.sluice.internal.mdt.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Table;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.mdt.read.MetadataTableReader;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;

/** What a table's record index should say and what it says, for tests. */
public final class RecordIndexChecks {
  private RecordIndexChecks() {
  }

  /**
   * Every live key of {@code table} (a snapshot scan with meta columns) to "partition/fileId": the file id from
   * {@code _hoodie_file_name} (a base file name, or the file id itself on rows from log blocks).
   */
  public static Map<String, String> truth(Table table) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = table.newScan().withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        String name = r.get("_hoodie_file_name").toString();
        String fileId = FileNames.parseBase(name).map(b -> b.fileId()).orElse(name);
        out.put(r.get("_hoodie_record_key").toString(), r.get("_hoodie_partition_path") + "/" + fileId);
      }
    }
    return out;
  }

  /** What the record index of the table at {@code basePath} says for {@code keys}, as "partition/fileId". */
  public static Map<String, String> indexed(Storage storage, String basePath, List<String> keys) {
    MetadataTableReader reader = MetadataTableReader.open(storage, basePath, new TimelineStore(storage, basePath).load())
        .orElseThrow(() -> new AssertionError("no metadata table at " + basePath));
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, RecordLocation> e : reader.recordLocations(keys).entrySet()) {
      out.put(e.getKey(), e.getValue().partition() + "/" + e.getValue().fileId());
    }
    return out;
  }

  /**
   * The differences between the record index of {@code table} and its live keys, over {@code candidates} (keys ever
   * written) and every live key: missing, wrong or stale entries, named.
   */
  public static List<String> problems(Table table, List<String> candidates) {
    Map<String, String> truth = truth(table);
    java.util.Set<String> keys = new java.util.TreeSet<>(candidates);
    keys.addAll(truth.keySet());
    Map<String, String> indexed = indexed(table.storage(), table.location(), List.copyOf(keys));
    List<String> out = new java.util.ArrayList<>();
    for (String k : keys) {
      if (!java.util.Objects.equals(truth.get(k), indexed.get(k))) {
        out.add("record index: key " + k + " is at " + truth.get(k) + " but indexed at " + indexed.get(k));
      }
    }
    return out;
  }
}
