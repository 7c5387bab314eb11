package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.SluiceException;
import dev.sluice.tools.health.Advice;
import dev.sluice.tools.health.Advisor;
import dev.sluice.tools.health.SampleEstimate;
import dev.sluice.tools.health.WritePattern;
import dev.sluice.tools.records.InputFormat;
import dev.sluice.tools.records.InputOptions;
import dev.sluice.tools.records.RecordSources;
import dev.sluice.api.CloseableIterator;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice advise}: Copy-on-Write or Merge-on-Read for the table's writes, from its recent commits and optionally
 * a sample of the upserts to come (tagged against the table's index; nothing is written).
 */
@Command(name = "advise", description = "Recommend COPY_ON_WRITE or MERGE_ON_READ for the observed write pattern (recent "
    + "commits), or for a sample of upserts (--input), with the figures behind it.")
final class AdviseCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--input", paramLabel = "FILE", arity = "1..*",
      description = "Sample files of upserts (JSON Lines, CSV, Avro, Parquet), tagged against the table's index.")
  List<Path> inputs = List.of();

  @Option(names = "--format", description = "json, csv, avro or parquet (default: from each file's extension).")
  String format;

  @Option(names = "--ignore-unknown-fields", description = "Skip input fields that are not in the table schema.")
  boolean ignoreUnknown;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    Advice a;
    if (inputs.isEmpty()) {
      a = Advisor.advise(t, Optional.empty(), Clock.systemUTC());
    } else {
      try (CloseableIterator<GenericRecord> sample = open(t)) {
        a = Advisor.advise(t, Optional.<Iterator<GenericRecord>>of(sample), Clock.systemUTC());
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode doc = Json.object();
      doc.put("table", t.location());
      doc.setAll((ObjectNode) Json.tree(a));
      Json.print(out, doc);
      return 0;
    }
    out.printf("recommendation: %s (the table is %s)%n%n%s%n%n", a.recommendation(), a.current(), a.reason());
    WritePattern h = a.history();
    out.printf("recent upserts and deletes: %d (inserts, bulk inserts and compactions left out): %,d inserted, %,d updated, %,d deleted%n",
        h.commits(), h.inserted(), h.updated(), h.deleted());
    out.printf("  file groups touched per write %.1f of %d; changed records per file group %s%n",
        h.fileGroupsTouchedPerCommit(), h.fileGroups(), StatsCommand.fmt(h.changedRecordsPerFileGroup()));
    out.printf("  bytes per update or delete: copy-on-write %s, merge-on-read %s, ratio %s (break-even %.1f)%n",
        bytes(h.cowBytesPerChangedRecord()), bytes(h.morBytesPerChangedRecord()),
        StatsCommand.fmt(h.rewriteRatio()), a.breakEven());
    if (a.sample().isPresent()) {
      SampleEstimate e = a.sample().get();
      out.printf("sample: %,d records: %,d updates, %,d deletes, %,d inserts; %d of %d file groups touched%n", e.records(),
          e.updates(), e.deletes(), e.inserts(), e.fileGroupsTouched(), e.fileGroups());
      out.printf("  copy-on-write rewrites %,d bytes, merge-on-read appends about %,d bytes, ratio %s%n",
          e.cowBytesRewritten(), e.morBytesAppended(), StatsCommand.fmt(e.rewriteRatio()));
    }
    out.flush();
    return 0;
  }

  private static String bytes(OptionalDouble d) {
    return d.isPresent() ? String.format(Locale.ROOT, "%,.0f", d.getAsDouble()) : "-";
  }

  private CloseableIterator<GenericRecord> open(Table t) {
    Schema schema = t.schema();
    InputOptions options = InputOptions.of(t.options(), ignoreUnknown);
    List<Supplier<CloseableIterator<GenericRecord>>> parts = new ArrayList<>();
    for (Path in : inputs) {
      if (!Files.isRegularFile(in)) {
        throw SluiceException.badRequest("Input " + in, "the file does not exist", "Give existing sample files.");
      }
      InputFormat f = format != null ? InputFormat.parse(format) : InputFormat.fromFileName(in.getFileName().toString());
      parts.add(() -> RecordSources.open(in, f, schema, options));
    }
    return CloseableIterator.concat(parts);
  }
}
