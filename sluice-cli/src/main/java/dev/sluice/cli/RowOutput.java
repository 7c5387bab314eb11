package dev.sluice.cli;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import dev.sluice.tools.records.CsvRecordWriter;
import dev.sluice.tools.records.JsonRecordWriter;
import dev.sluice.tools.records.OutputFormat;
import dev.sluice.tools.records.RecordFormatter;
import dev.sluice.tools.records.TableRenderer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes the rows of {@code sluice query} to standard output. JSON Lines and CSV stream through one formatter per
 * query (compiled once for the schema) into a 64 KiB byte buffer over the process's raw standard output when there
 * is one: {@code System.out} flushes on every line, and formatting each row to a String of its own (as the first
 * version did) cost more than reading it. Without a raw stream (in-process callers that pass only writers) the same
 * formatters write characters to the command's writer.
 */
final class RowOutput {
  /** The table format buffers its rows to align the columns; beyond this many it stops and says so. */
  static final int TABLE_FORMAT_MAX_ROWS = 10_000;
  private static final int BUFFER_BYTES = 1 << 16;

  private RowOutput() {
  }

  /**
   * Writes every row of {@code rows} (of {@code schema}) in {@code format}; returns the exit status: 0, also when the
   * reader of the output went away (a closed pipe, as {@code sluice query t | head} closes it) - the rows it wanted
   * were written, and the scan stops instead of reading on for nobody.
   *
   * @param raw the process's standard output as bytes, if the caller has it
   */
  static int write(CloseableIterator<GenericRecord> rows, Schema schema, String format, Optional<OutputStream> raw,
      PrintWriter out) {
    String f = format.toLowerCase(Locale.ROOT);
    if (f.equals("table")) {
      table(rows, schema, out);
      return 0;
    }
    if (!f.equals("jsonl") && !f.equals("json") && !f.equals("csv")) {
      throw SluiceException.badRequest("--format " + format, "unknown output format", "Use jsonl, csv or table.");
    }
    OutputFormat of = OutputFormat.parse(f);
    // anything printed before (nothing today) reaches the terminal before the rows written around the writer
    out.flush();
    OutputStream buffered = raw.map(r -> (OutputStream) new BufferedOutputStream(r, BUFFER_BYTES)).orElse(null);
    RecordFormatter formatter = buffered != null ? RecordFormatter.create(of, buffered, schema)
        : of == OutputFormat.CSV ? new CsvRecordWriter(out, schema) : new JsonRecordWriter(out, schema);
    try {
      while (rows.hasNext()) {
        formatter.write(rows.next());
      }
      formatter.close();
    } catch (IOException e) {
      if (brokenPipe(e)) {
        return 0;
      }
      throw SluiceException.storage("write query output to", "stdout", e);
    }
    return 0;
  }

  /** The error a write to a pipe whose reader has exited gets (EPIPE; the JVM ignores the signal). */
  static boolean brokenPipe(IOException e) {
    return e.getMessage() != null && e.getMessage().contains("Broken pipe");
  }

  private static void table(CloseableIterator<GenericRecord> rows, Schema schema, PrintWriter out) {
    List<GenericRecord> buffered = new ArrayList<>();
    while (rows.hasNext() && buffered.size() < TABLE_FORMAT_MAX_ROWS) {
      buffered.add(rows.next());
    }
    List<String> names = schema.getFields().stream().map(Schema.Field::name).toList();
    out.print(TableRenderer.withDefaults().render(names, buffered));
    if (rows.hasNext()) {
      out.println("(only the first " + TABLE_FORMAT_MAX_ROWS + " rows are shown; use --limit or --format jsonl)");
    }
  }
}
