package dev.sluice.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogDump;
import dev.sluice.internal.log.LogDump.BlockSummary;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.records.JsonRecordWriter;
import dev.sluice.storage.StoragePaths;
import dev.sluice.api.CloseableIterator;
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

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "FILE",
      description = "The log file: its name (as 'sluice files' shows it), its path relative to the table, or a full path.")
  String file;

  @Option(names = "--records", description = "Also print each data block's records and each delete block's keys as JSON Lines.")
  boolean records;

  @Option(names = "--json", description = "Print one JSON document (field names in the README).")
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
    int n = 0;
    try (LogReader reader = LogReader.open(t.storage(), path)) {
      while (reader.hasNext()) {
        LogBlock block = reader.next();
        BlockSummary s = LogDump.summarize(block);
        out.printf("block %d  %s%n", n++, describe(s));
        for (Map.Entry<HeaderKey, String> h : s.header().entrySet()) {
          out.printf("  %s: %s%n", h.getKey(), h.getKey() == HeaderKey.SCHEMA ? oneLine(h.getValue()) : h.getValue());
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
    ArrayNode blocks = doc.putArray("blocks");
    int n = 0;
    try (LogReader reader = LogReader.open(t.storage(), path)) {
      while (reader.hasNext()) {
        LogBlock block = reader.next();
        BlockSummary s = LogDump.summarize(block);
        ObjectNode b = blocks.addObject();
        b.put("index", n++);
        b.put("offset", s.offset());
        b.put("size", s.size());
        b.put("type", s.type().name());
        b.set("instant", Json.tree(s.instantTime()));
        b.set("records", Json.tree(s.records()));
        ObjectNode header = b.putObject("header");
        s.header().forEach((k, v) -> header.put(k.name(), k == HeaderKey.SCHEMA ? oneLine(v) : v));
        if (records) {
          b.set("rows", rows(block));
        }
      }
    }
    doc.put("blockCount", n);
    return doc;
  }

  private static ArrayNode rows(LogBlock block) {
    ArrayNode out = Json.array();
    if (block instanceof DataBlock data) {
      try (CloseableIterator<GenericRecord> it = data.records(data.writerSchema())) {
        while (it.hasNext()) {
          try {
            out.add(JSON.readTree(JsonRecordWriter.toJson(it.next())));
          } catch (IOException e) {
            throw Errors.internal("a record's JSON did not parse", e);
          }
        }
      }
    } else if (block instanceof DeleteBlock deletes) {
      try (CloseableIterator<DeleteRecord> it = deletes.records()) {
        while (it.hasNext()) {
          out.add(deleteJson(it.next()));
        }
      }
    }
    return out;
  }

  /** One line about a block: offset, size, type, instant, records. */
  static String describe(BlockSummary s) {
    String count = s.records().isPresent() ? s.records().getAsLong() + (s.records().getAsLong() == 1 ? " record" : " records")
        : "records unknown";
    return String.format("offset %,d  %,d bytes  %s  instant %s  %s", s.offset(), s.size(), s.type(),
        s.instantTime().orElse("-"), count);
  }

  private static void printRecords(LogBlock block, PrintWriter out) {
    if (block instanceof DataBlock data) {
      try (CloseableIterator<GenericRecord> it = data.records(data.writerSchema())) {
        while (it.hasNext()) {
          out.println(JsonRecordWriter.toJson(it.next()));
        }
      }
    } else if (block instanceof DeleteBlock deletes) {
      try (CloseableIterator<DeleteRecord> it = deletes.records()) {
        while (it.hasNext()) {
          out.println(deleteJson(it.next()).toString());
        }
      }
    }
  }

  private static ObjectNode deleteJson(DeleteRecord d) {
    ObjectNode o = JSON.createObjectNode();
    o.put("recordKey", d.recordKey());
    o.put("partitionPath", d.partitionPath());
    Object v = d.orderingValue();
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
    String name = StoragePaths.name(file);
    if (FileNames.parseLog(name).isPresent()) {
      FileSystemView view = t.fileSystemView();
      for (String partition : view.partitions()) {
        Optional<String> found = view.fileGroups(partition).stream()
            .flatMap(g -> g.slices().stream())
            .flatMap(s -> s.logFiles().stream())
            .filter(l -> l.fileName().equals(name))
            .map(LogFile::path)
            .findFirst();
        if (found.isPresent()) {
          return found.get();
        }
      }
    }
    throw Errors.badRequest("Log file '" + file + "'", "no such log file in the table at " + t.location(),
        "Give a name 'sluice files' lists, or its path.");
  }
}
