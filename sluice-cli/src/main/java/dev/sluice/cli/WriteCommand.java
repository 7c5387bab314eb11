package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.SluiceException;
import dev.sluice.tools.records.InputFormat;
import dev.sluice.tools.records.InputOptions;
import dev.sluice.tools.records.RecordSources;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import dev.sluice.api.Positioned;
import dev.sluice.api.WriteOperation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sluice insert|upsert|delete|bulk-insert}: one write of the records in the input files. */
/** Each verb's description is set in {@link Main#commandLine()} from {@link #description}. */
@Command
final class WriteCommand implements Callable<Integer> {
  private final WriteOperation operation;

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "INPUT", description = "Input files.")
  List<Path> inputs;

  @Option(names = "--format", description = "json, csv, avro or parquet (default: from each file's extension).")
  String format;

  @Option(names = "--ignore-unknown-fields", description = "Skip input fields that are not in the table schema.")
  boolean ignoreUnknown;

  @Option(names = "--schema", paramLabel = "FILE.avsc", description = "Read the input with this Avro schema and evolve "
      + "the table to it: new nullable fields and widened types (int to long, float to double) are taken, other "
      + "changes refused.")
  Path schemaFile;

  @Mixin
  CommonOptions common;

  @Mixin
  ProgressOptions progress;

  @Spec
  CommandSpec spec;

  WriteCommand(WriteOperation operation) {
    this.operation = operation;
  }

  /** The command's name: {@code insert}, {@code upsert}, {@code delete}, {@code bulk-insert}. */
  static String verb(WriteOperation op) {
    return op.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /**
   * What the verb does to keys already in the table, as the write path does it (TableWriter tags every operation but
   * BULK_INSERT against the index; an update merges under the table's merge mode).
   */
  static String[] description(WriteOperation op) {
    String tail = "Reads JSON Lines, CSV, Avro or Parquet files (see 'sluice help formats') and writes them as one "
        + "commit; if anything fails, nothing is committed.";
    return switch (op) {
      case INSERT -> new String[] {"Insert records, looking up their keys first.", "",
          "Keys are looked up in the table's index as for upsert: a key already stored is updated (under the default "
              + "event-time merge mode the record with the larger ordering (precombine) value wins, so an older record "
              + "is ignored; under commit-time the new record wins), a new key is inserted. Duplicate keys inside the "
              + "input are combined first (hoodie.combine.before.insert, default true).", "", tail};
      case UPSERT -> new String[] {"Update records whose key exists, insert the others.", "",
          "A key already stored is updated: under the default event-time merge mode the record with the larger ordering "
              + "(precombine) value wins, so an input record older than the stored one is ignored; under commit-time "
              + "the new record wins. Records with _hoodie_is_deleted = true delete their key. Duplicate keys inside the "
              + "input are combined first, the larger ordering value winning (hoodie.combine.before.upsert).", "",
          tail};
      case DELETE -> new String[] {"Delete the records with the given keys.", "",
          "Each input record names a key: the record key field(s) and, on a partitioned table, the partition path "
              + "field(s); other fields are ignored. A key that is stored is removed; a key the table does not hold is "
              + "skipped (it is not counted as deleted and is not an error).", "", tail};
      case BULK_INSERT -> new String[] {"Load records without looking up existing keys (initial load).", "",
          "Bulk insert does not look up keys already in the table: every input record is written to new files "
              + "sorted by partition and key, so a key that is already stored ends up twice (as in Hudi). Use it for "
              + "the first load of a table or for data known to be new; use upsert otherwise.", "", tail};
    };
  }

  @Override
  public Integer call() {
    // closing the handle lets a background compaction (sluice.compact.async) finish before the process exits
    try (Table t = Tables.open(table, common.config())) {
      return write(t);
    }
  }

  private int write(Table t) {
    boolean delete = operation == WriteOperation.DELETE;
    Schema schema = delete ? t.keySchema() : schemaFile != null ? readSchema(schemaFile) : t.schema();
    InputOptions options = InputOptions.of(t.options(), ignoreUnknown || delete);
    List<Supplier<CloseableIterator<GenericRecord>>> parts = new ArrayList<>();
    for (Path in : inputs) {
      if (!Files.isRegularFile(in)) {
        throw SluiceException.badRequest("Input " + in, "the file does not exist", "Give existing input files.");
      }
      InputFormat f = format != null ? InputFormat.parse(format) : InputFormat.fromFileName(in.getFileName().toString());
      parts.add(() -> RecordSources.open(in, f, schema, options));
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // the table as it was before this write; the warning follows a successful write (a failed one prints one line)
    Optional<String> last = operation == WriteOperation.BULK_INSERT ? t.inspect().lastCompletedCommit()
        : Optional.empty();
    CommitResult r;
    try (CloseableIterator<GenericRecord> records = RecordSources.concatAhead(parts);
        ProgressDisplay display = ProgressDisplay.of(progress, err, false)) {
      try {
        r = t.write(operation, records, display);
      } catch (OutOfMemoryError | StackOverflowError e) {
        // the batch is unreachable once the write has unwound: there is room again to say where it happened
        String where = records instanceof Positioned p ? p.position().map(at -> "after reading " + at).orElse(null)
            : null;
        throw SluiceException.outOfResources("Writing " + operation.name().toLowerCase(java.util.Locale.ROOT)
            + " to " + table, where, e);
      }
    }
    if (!r.committed()) {
      out.println(OutcomeText.NOTHING_COMMITTED);
      out.flush();
      return 0;
    }
    out.printf("Committed %s %s: %d inserted, %d updated, %d deleted, %d files, %d bytes%n",
        operation, r.instantTime(), r.inserted(), r.updated(), r.deleted(), r.files().size(), r.bytesWritten());
    OutcomeText.lines(r).forEach(l -> out.println("  " + l));
    out.flush();
    if (last.isPresent()) {
      err.println("warning: bulk-insert does not look up existing keys: the table had commits (the last " + last.get()
          + "), so a key of the input that the table already held is now stored twice, as in Hudi. Use upsert "
          + "(or insert) to update existing keys.");
    }
    OutcomeText.warnings(r).forEach(err::println);
    err.flush();
    return 0;
  }

  private static Schema readSchema(Path file) {
    if (!Files.isRegularFile(file)) {
      throw SluiceException.badRequest("--schema " + file, "the file does not exist", "Give an Avro schema file (.avsc).");
    }
    try {
      return new Schema.Parser().parse(Files.readString(file));
    } catch (java.io.IOException e) {
      throw SluiceException.storage("read", file.toString(), e);
    } catch (org.apache.avro.SchemaParseException e) {
      throw SluiceException.badInput(file.toString(), "it is not a valid Avro schema: " + e.getMessage(), e);
    }
  }
}
