package dev.sluice.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.DeletedKey;
import dev.sluice.api.LogBlockContent;
import dev.sluice.api.LogBlockInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.storage.StoragePaths;
import dev.sluice.tools.records.JsonRecordWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Base64;
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
@Command(name = "logs", description = "Dump the blocks of one log file of a table: type, instant, records, size, headers; "
    + "with --records also the records (JSON Lines).")
final class LogsCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The header key whose value (the writer schema) is printed on one line. */
  private static final String SCHEMA = "SCHEMA";

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "FILE",
      description = "The log file: its name (as 'sluice files' shows it), its path relative to the table, or a full path.")
  String file;

  @Option(names = "--records", description = "Also print each data block's records and each delete block's keys as JSON Lines.")
  boolean records;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    String path = resolve(t);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Json.print(out, json(t, path));
      return 0;
    }
    out.println(path);
    if (t.tableVersion() != 6) {
      out.printf("table version %d%n", t.tableVersion());
    }
    int n = 0;
    try (CloseableIterator<LogBlockContent> reader = t.inspect().readLog(path)) {
      while (reader.hasNext()) {
        LogBlockContent block = reader.next();
        LogBlockInfo s = block.info();
        out.printf("block %d  %s%s%n", n++, describe(s), s.instantTime().flatMap(i -> t.inspect().completionTime(i))
            .map(c -> "  completed " + c).orElse(""));
        for (Map.Entry<String, String> h : s.header().entrySet()) {
          out.printf("  %s: %s%n", h.getKey(), SCHEMA.equals(h.getKey()) ? oneLine(h.getValue()) : h.getValue());
        }
        if (records) {
          printRecords(block, out);
        }
      }
    }
    out.printf("%d blocks%n", n);
    out.flush();
    return 0;
  }

  private ObjectNode json(Table t, String path) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("file", path);
    doc.put("tableVersion", t.tableVersion());
    ArrayNode blocks = doc.putArray("blocks");
    int n = 0;
    try (CloseableIterator<LogBlockContent> reader = t.inspect().readLog(path)) {
      while (reader.hasNext()) {
        LogBlockContent block = reader.next();
        LogBlockInfo s = block.info();
        ObjectNode b = blocks.addObject();
        b.put("index", n++);
        s.instantTime().flatMap(i -> t.inspect().completionTime(i)).ifPresent(c -> b.put("completionTime", c));
        b.put("offset", s.offset());
        b.put("size", s.size());
        b.put("type", s.type());
        b.set("instant", Json.tree(s.instantTime()));
        b.set("records", Json.tree(s.records()));
        ObjectNode header = b.putObject("header");
        s.header().forEach((k, v) -> header.put(k, SCHEMA.equals(k) ? oneLine(v) : v));
        if (records) {
          b.set("rows", rows(block));
        }
      }
    }
    doc.put("blockCount", n);
    return doc;
  }

  private static ArrayNode rows(LogBlockContent block) {
    ArrayNode out = Json.array();
    try (CloseableIterator<GenericRecord> it = block.records()) {
      while (it.hasNext()) {
        try {
          out.add(JSON.readTree(JsonRecordWriter.toJson(it.next())));
        } catch (IOException e) {
          throw SluiceException.internal("a record's JSON did not parse", e);
        }
      }
    }
    try (CloseableIterator<DeletedKey> it = block.deletedKeys()) {
      while (it.hasNext()) {
        out.add(deleteJson(it.next()));
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

  private static void printRecords(LogBlockContent block, PrintWriter out) {
    try (CloseableIterator<GenericRecord> it = block.records()) {
      while (it.hasNext()) {
        out.println(JsonRecordWriter.toJson(it.next()));
      }
    }
    try (CloseableIterator<DeletedKey> it = block.deletedKeys()) {
      while (it.hasNext()) {
        out.println(deleteJson(it.next()).toString());
      }
    }
  }

  private static ObjectNode deleteJson(DeletedKey d) {
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

  private static String oneLine(String schema) {
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
