package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.tools.health.CommitStats;
import dev.sluice.tools.health.PendingCompaction;
import dev.sluice.tools.health.ReadCost;
import dev.sluice.tools.health.SizeDistribution;
import dev.sluice.tools.health.SliceStats;
import dev.sluice.tools.health.TableHealth;
import dev.sluice.tools.health.TableStats;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice stats}: per commit what it wrote and its write amplification, per latest file slice its logs and read
 * amplification, pending compactions, base file sizes, and the health warnings.
 */
@Command(name = "stats", description = "Table health: per commit records, file groups, bytes and write amplification; per "
    + "latest file slice base and log sizes, delta commits since compaction and read amplification; pending compactions; "
    + "base file sizes; warnings (thresholds: sluice.health.*). Subcommands: filesizes, wa (as hudi-cli's stats).",
    subcommands = {StatsFileSizesCommand.class, StatsWaCommand.class})
final class StatsCommand implements Callable<Integer> {
  private static final String COMMITS = "%-17s  %-13s  %-11s  %9s  %9s  %9s  %6s  %9s  %7s  %5s  %12s  %9s  %9s  %9s%n";
  private static final String SLICES = "%-12s  %-40s  %-17s  %12s  %9s  %4s  %12s  %6s  %9s  %9s  %s%n";

  // optional only so that the subcommands (stats filesizes TABLE) parse; call() requires it
  @Parameters(index = "0", arity = "0..1", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    if (table == null) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'TABLE'");
    }
    Table t = Tables.open(table, common.config());
    TableStats s = TableHealth.of(t, Clock.systemUTC());
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Json.print(out, document(t, s));
      return 0;
    }
    out.printf("%s table %s (version %d): %d commits on the active timeline, %d file groups; last compaction %s, %d delta commits "
        + "since%n%n", s.tableType(), t.location(), t.tableVersion(), s.commits().size(), s.slices().size(),
        s.lastCompaction().orElse("none"), s.deltaCommitsSinceLastCompaction());
    out.println("commits (write amplification = bytes written / estimated bytes of the changed records)");
    out.printf(COMMITS, "instant", "action", "operation", "inserted", "updated", "deleted", "groups", "rewritten",
        "created", "logs", "bytes", "write-amp", "record-amp", "hudi-waf");
    for (CommitStats c : s.commits()) {
      out.printf(COMMITS, c.instantTime(), c.action() + (c.compaction() ? "*" : ""), c.operation(), c.inserted(),
          c.updated(), c.deleted(), c.fileGroupsTouched(), c.fileGroupsRewritten(), c.fileGroupsCreated(), c.logAppends(),
          c.bytesWritten(), fmt(c.writeAmplification()), fmt(c.recordAmplification()), fmt(c.hudiWriteAmplification()));
      // versions 8 and 9: the completion time, which orders incremental ranges
      t.inspect().completionTime(c.instantTime()).ifPresent(v -> out.printf("%s  completed %s%n", " ".repeat(17), v));
    }
    out.printf("%nlatest file slices (read-amp = (base + log bytes) / base bytes)%n");
    out.printf(SLICES, "partition", "file group", "base instant", "base bytes", "records", "logs", "log bytes", "deltas",
        "read-amp", "log/base", "");
    for (SliceStats x : s.slices()) {
      out.printf(SLICES, x.partitionPath().isEmpty() ? "<none>" : x.partitionPath(), x.fileId(), x.baseInstant(),
          x.baseFile().isPresent() ? String.valueOf(x.baseFileBytes()) : "-",
          x.baseRecords().isPresent() ? String.valueOf(x.baseRecords().getAsLong()) : "-", x.logFiles(), x.logBytes(),
          x.deltaCommitsSinceBase(), fmt(x.readAmplification()), fmt(x.logRecordsPerBaseRecord()),
          x.pendingCompaction().map(c -> "compaction " + c + " pending").orElse(""));
    }
    out.printf("%npending compactions: %d%n", s.pendingCompactions().size());
    for (PendingCompaction p : s.pendingCompactions()) {
      out.printf("  %s  %s  %d file groups  %d minutes old%n", p.instantTime(), p.state().toLowerCase(Locale.ROOT),
          p.fileGroups().size(), p.ageMinutes());
    }
    SizeDistribution d = s.baseFileSizes();
    out.printf("base files: %d, %,d bytes; min %,d, median %,d, p90 %,d, max %,d; %d below the small-file limit (%,d)%n",
        d.files(), d.totalBytes(), d.min(), d.median(), d.p90(), d.max(), d.smallFiles(), d.smallFileLimit());
    ReadCost r = s.readCost();
    out.printf("snapshot read: %,d base bytes + %,d log bytes (read amplification %s), %,d log records for %,d base records "
        + "(%s per base record)%n%n", r.baseBytes(), r.logBytes(), fmt(r.readAmplification()), r.logRecords(),
        r.baseRecords(), fmt(r.logRecordsPerBaseRecord()));
    WarningsText.print(out, s.warnings());
    out.flush();
    return 0;
  }

  /** The {@code --json} document of {@code s}; {@code sluice report} embeds the same one. */
  static ObjectNode document(Table t, TableStats s) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("tableVersion", t.tableVersion());
    doc.setAll((ObjectNode) Json.tree(s));
    ObjectNode completions = doc.putObject("completionTimes");
    for (CommitStats c : s.commits()) {
      t.inspect().completionTime(c.instantTime()).ifPresent(v -> completions.put(c.instantTime(), v));
    }
    return doc;
  }

  static String fmt(OptionalDouble d) {
    return d.isPresent() ? String.format(Locale.ROOT, "%.2f", d.getAsDouble()) : "-";
  }
}
