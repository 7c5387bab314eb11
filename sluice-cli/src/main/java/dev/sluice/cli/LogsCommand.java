package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.DeletedKey;
import dev.sluice.api.LogBlockContent;
import dev.sluice.api.LogBlockInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.storage.StoragePaths;
import dev.sluice.tools.records.JsonRecordWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice logs}: the blocks of one log file, their headers and optionally their records. */
@Command(name = "logs", description = "Dump the blocks of one log file of a table: type, instant, records, size, headers "
    + "(hudi-cli: show logfile metadata); with --records also the records (JSON Lines); with --merged the records of "
    + "the file group's log files merged by key (hudi-cli: show logfile records --mergeRecords).")
final class LogsCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The header key whose value (the writer schema) is printed on one line. */
  private static final String SCHEMA = "SCHEMA";

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "FILE",
      description = "The log file: its name (as 'sluice files' shows it), its path relative to the table, or a full path; "
          + "with --merged also a file group id.")
  String file;

  @Option(names = "--records", description = "Also print each data block's records and each delete block's keys as JSON Lines.")
  boolean records;

  @Option(names = "--merged", description = "Instead of the blocks: the records of the log files of FILE's file group "
      + "(its latest slice) merged by key, as a snapshot read merges them before the base file (hudi-cli: show logfile "
      + "records --mergeRecords); FILE may also be a file group id. Deleted keys show as deleted.")
  boolean merged;

  @Mixin
  ViewOptions view;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  /** The fields of a block a listing sorts by. */
  static final List<String> BLOCK_FIELDS = List.of("index", "offset", "size", "type", "instant", "records",
      "completionTime");

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    PrintWriter out = spec.commandLine().getOut();
    if (merged) {
      return new MergedLogView(t, file, view, out).print();
    }
    String path = resolve(t);
    List<ObjectNode> blocks = new ArrayList<>();
    Map<Integer, List<String>> recordLines = new HashMap<>();
    TableInspection store = t.inspect();
    try (CloseableIterator<LogBlockContent> reader = store.readLog(path)) {
      while (reader.hasNext()) {
        LogBlockContent block = reader.next();
        LogBlockInfo s = block.info();
        ObjectNode b = Json.object();
        b.put("index", blocks.size());
        s.instantTime().flatMap(store::completionTime).ifPresent(c -> b.put("completionTime", c));
        b.put("offset", s.offset());
        b.put("size", s.size());
        b.put("type", s.type());
        b.set("instant", Json.tree(s.instantTime()));
        b.set("records", Json.tree(s.records()));
        ObjectNode header = b.putObject("header");
        s.header().forEach((k, v) -> header.put(k, SCHEMA.equals(k) ? oneLine(v) : v));
        if (records) {
          // read now: a block's records are readable only before the reader moves on
          List<String> lines = recordLines(block);
          recordLines.put(blocks.size(), lines);
          if (view.json) {
            b.set("rows", rows(lines));
          }
        }
        blocks.add(b);
      }
    }
    List<ObjectNode> shown = view.apply(blocks, BLOCK_FIELDS);
    if (view.json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.put("file", path);
      doc.put("tableVersion", t.tableVersion());
      doc.set("blocks", Json.tree(shown));
      doc.put("blockCount", blocks.size());
      Json.print(out, doc);
      return 0;
    }
    out.println(path);
    if (t.tableVersion() != 6) {
      out.printf("table version %d%n", t.tableVersion());
    }
    for (ObjectNode b : shown) {
      int index = b.get("index").asInt();
      JsonNode count = b.get("records");
      String counted = count.isNull() ? "records unknown"
          : count.asLong() + (count.asLong() == 1 ? " record" : " records");
      out.printf("block %d  offset %,d  %,d bytes  %s  instant %s  %s%s%n", index, b.get("offset").asLong(),
          b.get("size").asLong(), b.get("type").asText(), b.get("instant").isNull() ? "-" : b.get("instant").asText(),
          counted, b.has("completionTime") ? "  completed " + b.get("completionTime").asText() : "");
      b.get("header").fields().forEachRemaining(h -> out.printf("  %s: %s%n", h.getKey(), h.getValue().asText()));
      for (String line : recordLines.getOrDefault(index, List.of())) {
        out.println(line);
      }
    }
    out.printf("%d blocks%s%n", blocks.size(), shown.size() < blocks.size() ? " (" + shown.size() + " shown)" : "");
    out.flush();
    return 0;
  }

  private static ArrayNode rows(List<String> lines) {
    ArrayNode out = Json.array();
    for (String line : lines) {
      try {
        out.add(JSON.readTree(line));
      } catch (IOException e) {
        throw SluiceException.internal("a record's JSON did not parse", e);
      }
    }
    return out;
  }

  /** A data block's records and a delete block's keys, one JSON line each. */
  private static List<String> recordLines(LogBlockContent block) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = block.records()) {
      while (it.hasNext()) {
        out.add(JsonRecordWriter.toJson(it.next()));
      }
    }
    try (CloseableIterator<DeletedKey> it = block.deletedKeys()) {
      while (it.hasNext()) {
        out.add(deleteJson(it.next()).toString());
      }
    }
    return out;
  }

  /** One line about a block: offset, size, type, instant, records. */
  static String describe(LogBlockInfo s) {
    String count = s.records().isPresent() ? s.records().getAsLong() + (s.records().getAsLong() == 1 ? " record" : " records")
        : "records unknown";
    return String.format("offset %,d  %,d bytes  %s  instant %s  %s", s.offset(), s.size(), s.type(),
        s.instantTime().orElse("-"), count);
  }

  static ObjectNode deleteJson(DeletedKey d) {
    ObjectNode o = JSON.createObjectNode();
    o.put("recordKey", d.recordKey());
    o.put("partitionPath", d.partitionPath());
    Object v = d.orderingValue().orElse(null);
    if (v == null) {
      o.putNull("orderingValue");
    } else if (v instanceof Integer i) {
      o.put("orderingValue", i);
    } else if (v instanceof Long l) {
      o.put("orderingValue", l);
    } else if (v instanceof Float f) {
      o.put("orderingValue", f);
    } else if (v instanceof Double dbl) {
      o.put("orderingValue", dbl);
    } else if (v instanceof Boolean b) {
      o.put("orderingValue", b);
    } else if (v instanceof BigDecimal bd) {
      o.put("orderingValue", bd);
    } else if (v instanceof ByteBuffer bb) {
      byte[] bytes = new byte[bb.remaining()];
      bb.duplicate().get(bytes);
      o.put("orderingValue", Base64.getEncoder().encodeToString(bytes));
    } else {
      o.put("orderingValue", v.toString());
    }
    return o;
  }

  static String oneLine(String schema) {
    try {
      return JSON.readTree(schema).toString();
    } catch (IOException e) {
      // not JSON: show it as stored
      return schema;
    }
  }

  /** A full path, a path relative to the table, or a log file name looked up in the table's partitions. */
  private String resolve(Table t) {
    for (String candidate : new String[] {file, StoragePaths.join(t.location(), file)}) {
      try {
        if (t.storage().info(candidate).filter(i -> !i.directory()).isPresent()) {
          return candidate;
        }
      } catch (IOException e) {
        // not a usable path on this storage (e.g. a relative path given to an object store): try the next form
        continue;
      }
    }
    Optional<String> found = t.inspect().findLogFile(StoragePaths.name(file));
    if (found.isPresent()) {
      return found.get();
    }
    throw SluiceException.badRequest("Log file '" + file + "'", "no such log file in the table at " + t.location(),
        "Give a name 'sluice files' lists, or its path.");
  }
}
