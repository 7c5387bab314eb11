package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.FileGroupInfo;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.MergedLogRecord;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.storage.StoragePaths;
import dev.sluice.tools.records.JsonRecordWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sluice logs --merged}: the log records of one file group's latest slice merged by key (hudi-cli
 * {@code show logfile records --mergeRecords}), one row per key: the winning record or the delete.
 */
final class MergedLogView {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FIELDS = List.of("recordKey", "partitionPath", "deleted", "orderingValue");

  private final Table table;
  private final String file;
  private final ViewOptions view;
  private final PrintWriter out;

  MergedLogView(Table table, String file, ViewOptions view, PrintWriter out) {
    this.table = table;
    this.file = file;
    this.view = view;
    this.out = out;
  }

  int print() {
    TableInspection store = table.inspect();
    FileSliceInfo slice = slice(store);
    List<ObjectNode> rows = new ArrayList<>();
    Set<String> fields = new LinkedHashSet<>(FIELDS);
    try (CloseableIterator<MergedLogRecord> it = store.mergedLogRecords(slice.id())) {
      while (it.hasNext()) {
        MergedLogRecord m = it.next();
        ObjectNode r = Json.object();
        r.put("recordKey", m.recordKey());
        r.put("partitionPath", m.partitionPath());
        r.put("deleted", m.deleted());
        r.set("orderingValue", Json.tree(m.orderingValue()));
        r.set("record", m.record().map(MergedLogView::json).orElse(null));
        if (r.get("record") instanceof ObjectNode rec) {
          rec.fieldNames().forEachRemaining(fields::add);
        }
        rows.add(r);
      }
    }
    List<ObjectNode> shown = view.apply(rows, List.copyOf(fields));
    long deletes = rows.stream().filter(r -> r.get("deleted").asBoolean()).count();
    if (view.json) {
      ObjectNode doc = Json.object();
      doc.put("table", table.location());
      doc.put("partition", slice.partitionPath());
      doc.put("fileId", slice.fileId());
      doc.put("baseInstant", slice.baseInstant());
      doc.set("logFiles", Json.tree(slice.logFiles().stream().map(LogFileInfo::fileName).toList()));
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.putObject("totals").put("keys", rows.size()).put("records", rows.size() - deletes).put("deletes", deletes);
      Json.print(out, doc);
      return 0;
    }
    out.printf("file group %s in partition %s, slice %s: %d keys merged from %d log files (%d records, %d deletes)%s%n",
        slice.fileId(), slice.partitionPath().isEmpty() ? "<none>" : slice.partitionPath(), slice.baseInstant(),
        rows.size(), slice.logFiles().size(), rows.size() - deletes, deletes,
        shown.size() < rows.size() ? "; " + shown.size() + " shown" : "");
    for (ObjectNode r : shown) {
      out.println(r.toString());
    }
    out.flush();
    return 0;
  }

  /** The latest slice of the file group FILE names: by its id, or by the name of one of its log files. */
  private FileSliceInfo slice(TableInspection store) {
    String name = StoragePaths.name(file);
    for (String partition : store.partitions()) {
      for (FileGroupInfo g : store.fileGroups(partition)) {
        boolean named = g.id().fileId().equals(file) || g.slices().stream()
            .anyMatch(s -> s.logFiles().stream().anyMatch(l -> l.fileName().equals(name)));
        if (named) {
          Optional<FileSliceInfo> latest = store.latestSlices(partition).stream()
              .filter(s -> s.fileId().equals(g.id().fileId())).findFirst();
          return latest.orElseGet(() -> new FileSliceInfo(new FileGroupKey(partition, g.id().fileId()), "",
              Optional.empty(), List.of()));
        }
      }
    }
    throw SluiceException.badInput("the command line", "FILE", "the table at " + table.location()
        + " has no file group or log file '" + file + "'", "a file group id or log file name 'sluice fsview' lists");
  }

  private static JsonNode json(org.apache.avro.generic.GenericRecord r) {
    try {
      return JSON.readTree(JsonRecordWriter.toJson(r));
    } catch (IOException e) {
      throw SluiceException.internal("a record's JSON did not parse", e);
    }
  }
}
