package dev.sluice.cli;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.SluiceException;
import dev.sluice.api.QueryType;
import dev.sluice.api.Scan;
import dev.sluice.api.ExpressionParser;
import dev.sluice.api.CloseableIterator;
import dev.sluice.tools.records.ReadAhead;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice query}: rows of a snapshot, a read-optimized view, a time-travel snapshot, or an incremental range.
 */
@Command(name = "query", description = "Query a table: snapshot (default), read-optimized, as of an instant, or "
    + "incremental (--type incremental --from T1 [--to T2]).")
final class QueryCommand implements Callable<Integer> {
  /** The process's standard output as bytes, set by {@link Main#main}: rows go there through a buffer. */
  Optional<OutputStream> stdout = Optional.empty();

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--type", defaultValue = "snapshot", description = "snapshot, read-optimized or incremental.")
  String type;

  @Option(names = "--as-of", paramLabel = "INSTANT", description = "Time travel: the snapshot as of this instant "
      + "(a requested time; on table versions 8/9 it must be before the first pending write).")
  String asOf;

  @Option(names = "--from", paramLabel = "INSTANT", description = "Incremental: rows written after this instant "
      + "(table versions 8/9: after this completion time, or 'earliest').")
  String from;

  @Option(names = "--to", paramLabel = "INSTANT",
      description = "Incremental: up to and including this instant (versions 8/9: completion time; default: the "
          + "latest commit).")
  String to;

  @Option(names = "--include-deletes", description = "Incremental: also the records deleted in the range, as of "
      + "--from, with _hoodie_is_deleted=true (false on the other rows).")
  boolean includeDeletes;

  @Option(names = "--columns", split = ",", paramLabel = "a,b", description = "Columns to return (default: all).")
  List<String> columns = List.of();

  @Option(names = "--where", paramLabel = "EXPR", description = "Filter, e.g. \"ts > 100 and part = 'p1'\".")
  String where;

  @Option(names = "--meta", description = "Also return the _hoodie_* meta columns.")
  boolean meta;

  @Option(names = "--limit", paramLabel = "N", description = "At most N rows.")
  Long limit;

  @Option(names = "--format", defaultValue = "jsonl", description = "jsonl (default), csv or table.")
  String format;

  @Mixin
  CommonOptions common;

  @Mixin
  ProgressOptions progress;

  @Spec
  CommandSpec spec;

  /** Threads a query reads file slices on unless {@code sluice.read.parallelism} is given: two, on two cores or more. */
  static int readThreads(Config config) {
    return config.isSet(ConfigKeys.READ_PARALLELISM) ? config.get(ConfigKeys.READ_PARALLELISM)
        : Math.min(2, Runtime.getRuntime().availableProcessors());
  }

  @Override
  public Integer call() {
    Config config = common.config();
    Table t = Tables.open(table, config);
    QueryType queryType = parseType(type);
    PrintWriter err = spec.commandLine().getErr();
    // rows a corrupt block held are not returned: say so on stderr, where it cannot mix with the rows
    Scan scan = t.newScan().queryType(queryType).withMetaColumns(meta)
        .onCorruptBlock(b -> {
          err.println("warning: skipped a " + b.describe() + ". See 'sluice repair " + table + "'.");
          err.flush();
        });
    if (queryType == QueryType.INCREMENTAL) {
      if (from == null) {
        throw SluiceException.badInput("--type incremental", null, "no --from instant given",
            "--from INSTANT: rows written after that instant (see 'sluice timeline'; on table versions 8 and 9 a "
                + "completion time, shown there as 'completed', or 'earliest')");
      }
      scan = to == null ? scan.incremental(from) : scan.incremental(from, to);
    } else if (from != null || to != null) {
      throw SluiceException.badRequest("--from/--to", "they give the range of an incremental query",
          "Add --type incremental, or use --as-of for a snapshot as of an instant.");
    }
    if (includeDeletes) {
      scan = scan.includeDeletes(true);
    }
    if (!columns.isEmpty()) {
      scan = scan.select(columns);
    }
    if (where != null) {
      scan = scan.filter(ExpressionParser.parse(where));
    }
    if (asOf != null) {
      scan = scan.asOf(asOf);
    }
    if (limit != null) {
      scan = scan.limit(limit);
    }
    // slices are read on two threads (in plan order, so the output is that of one thread) while this one formats
    int threads = readThreads(config);
    scan = scan.parallelism(threads);
    PrintWriter out = spec.commandLine().getOut();
    Schema schema = scan.schema();
    int status;
    // progress on stderr only; a bar only when the rows do not go to the same terminal. The rows are read ahead on
    // other threads, in order: reading and formatting then share the cores instead of taking turns. With one read
    // thread (or an incremental query with deletes: read on one) a thread of its own reads ahead; else the scan's
    try (ProgressDisplay display = ProgressDisplay.of(progress, err, true);
        CloseableIterator<GenericRecord> rows = threads > 1 && !includeDeletes ? scan.onProgress(display).open()
            : ReadAhead.of(scan.onProgress(display).open(), "sluice-read-ahead", "the query's rows")) {
      status = RowOutput.write(rows, schema, format, stdout, out);
    }
    out.flush();
    return status;
  }

  static QueryType parseType(String t) {
    return switch (t.toLowerCase(Locale.ROOT).replace('_', '-')) {
      case "snapshot" -> QueryType.SNAPSHOT;
      case "read-optimized", "ro" -> QueryType.READ_OPTIMIZED;
      case "incremental" -> QueryType.INCREMENTAL;
      default -> throw SluiceException.badRequest("--type " + t, "unknown query type", "Use snapshot, read-optimized or incremental.");
    };
  }
}
