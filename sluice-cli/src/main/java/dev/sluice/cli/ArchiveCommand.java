package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.ArchiveInfo;
import dev.sluice.api.InstantInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice archive}: move old instants to the archived timeline as Hudi's archiver does. */
@Command(name = "archive", description = "Move old completed instants off the active timeline into .hoodie/archived "
    + "(when more than hoodie.keep.max.commits=30 commits are active, down to hoodie.keep.min.commits=20).")
final class ArchiveCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--dry-run", description = "Print the instants an archival would move now, and change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    PrintWriter out = spec.commandLine().getOut();
    List<InstantInfo> instants;
    if (dryRun) {
      instants = t.archivePreview();
      Optional<String> heldBack = instants.isEmpty() ? t.archiveHeldBack() : Optional.empty();
      if (json) {
        Json.print(out, json(t, true, instants, 0, Optional.empty(), heldBack));
        return 0;
      }
      out.printf("%d instants to archive%s%n", instants.size(), heldBack.map(r -> ": " + r).orElse(""));
    } else {
      ArchiveInfo result = t.archive();
      instants = result.archived();
      // asked after the archival: what holds the instants back now (nothing moved, so the same as before it)
      Optional<String> heldBack = instants.isEmpty() ? t.archiveHeldBack() : Optional.empty();
      if (json) {
        Json.print(out, json(t, false, instants, result.stateFiles(), result.archiveFile(), heldBack));
        return 0;
      }
      out.printf("%d instants archived (%d timeline files)%s%s%n", instants.size(), result.stateFiles(),
          result.archiveFile().map(f -> " to " + f).orElse(""), heldBack.map(r -> ": " + r).orElse(""));
    }
    for (InstantInfo i : instants) {
      out.printf("  %s  %s%n", i.time(), i.action());
    }
    out.flush();
    return 0;
  }

  private static ObjectNode json(Table t, boolean dryRun, List<InstantInfo> instants, int stateFiles,
      Optional<String> archiveFile, Optional<String> heldBack) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("dryRun", dryRun);
    ArrayNode list = doc.putArray("instants");
    for (InstantInfo i : instants) {
      list.addObject().put("time", i.time()).put("action", i.action()).put("state", i.state().name());
    }
    doc.put("stateFiles", stateFiles);
    doc.set("archiveFile", Json.tree(archiveFile));
    doc.set("heldBack", Json.tree(heldBack));
    return doc;
  }
}
