package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ArchivedInstantInfo;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteStatInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice timeline}: every instant on the active (and optionally the archived) timeline with what it wrote. */
@Command(name = "timeline", description = "List the instants of a table: time, action, state, records and files written.")
final class TimelineCommand implements Callable<Integer> {
  private static final String FORMAT = "%-17s  %-12s  %-9s  %-11s  %9s  %9s  %9s  %6s  %12s%s%n";

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Option(names = "--archived", description = "Also list the archived instants (.hoodie/archived; versions 8 and 9: "
      + ".hoodie/timeline/history, with completion times), oldest first.")
  boolean archived;

  @Option(names = "--json", description = "Print one JSON document (field names in docs/cli.md).")
  boolean json;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    TableInspection store = t.inspect();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Json.print(out, json(t, store, archived));
      return 0;
    }
    out.printf(FORMAT, "instant", "action", "state", "operation", "inserted", "updated", "deleted", "files", "bytes",
        archived ? "  timeline" : "");
    if (archived) {
      for (ArchivedInstantInfo a : store.archivedTimeline()) {
        print(out, a.instant(), a.commit(), "  archived" + a.completionTime().map(c -> "  completed " + c).orElse(""));
      }
    }
    for (InstantInfo i : store.timeline()) {
      Optional<CommitInfo> md = store.commitMetadata(i);
      String details = md.isPresent() ? "" : InstantDetails.of(store, i).map(d -> "  " + d).orElse("");
      // tables of version 8 and 9 name each completed instant's completion time
      String completed = store.completionTime(i.time()).filter(c -> i.isCompleted()).map(c -> "  completed " + c)
          .orElse("");
      print(out, i, md, (archived ? "  active" : "") + completed + details);
    }
    out.flush();
    return 0;
  }

  /** The {@code --json} document; {@code sluice report} draws its time chart from the same entries. */
  static ObjectNode json(Table t, TableInspection store, boolean archived) {
    ArrayNode instants = Json.array();
    if (archived) {
      for (ArchivedInstantInfo a : store.archivedTimeline()) {
        ObjectNode e = entry(a.instant(), a.commit(), "archived", Optional.empty());
        a.completionTime().ifPresent(c -> e.put("completionTime", c));
        instants.add(e);
      }
    }
    for (InstantInfo i : store.timeline()) {
      Optional<CommitInfo> md = store.commitMetadata(i);
      ObjectNode e = entry(i, md, "active", md.isPresent() ? Optional.empty() : InstantDetails.of(store, i));
      store.completionTime(i.time()).filter(c -> i.isCompleted()).ifPresent(c -> e.put("completionTime", c));
      instants.add(e);
    }
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("tableVersion", store.tableVersion());
    doc.set("instants", instants);
    return doc;
  }

  private static ObjectNode entry(InstantInfo i, Optional<CommitInfo> md, String timeline, Optional<String> details) {
    ObjectNode o = Json.object();
    o.put("time", i.time());
    o.put("action", i.action());
    o.put("state", i.state().name());
    o.put("timeline", timeline);
    if (md.isPresent()) {
      List<WriteStatInfo> stats = md.get().stats();
      o.put("operation", md.get().operation());
      o.put("inserted", stats.stream().mapToLong(WriteStatInfo::numInserts).sum());
      o.put("updated", stats.stream().mapToLong(WriteStatInfo::numUpdateWrites).sum());
      o.put("deleted", stats.stream().mapToLong(WriteStatInfo::numDeletes).sum());
      o.put("files", stats.size());
      o.put("bytes", stats.stream().mapToLong(WriteStatInfo::totalWriteBytes).sum());
    } else {
      for (String f : new String[] {"operation", "inserted", "updated", "deleted", "files", "bytes"}) {
        o.putNull(f);
      }
    }
    o.set("details", Json.tree(details));
    return o;
  }

  private static void print(PrintWriter out, InstantInfo i, Optional<CommitInfo> md, String where) {
    String state = i.state().name().toLowerCase(Locale.ROOT);
    if (md.isPresent()) {
      List<WriteStatInfo> stats = md.get().stats();
      out.printf(FORMAT, i.time(), i.action(), state, md.get().operation(),
          stats.stream().mapToLong(WriteStatInfo::numInserts).sum(),
          stats.stream().mapToLong(WriteStatInfo::numUpdateWrites).sum(),
          stats.stream().mapToLong(WriteStatInfo::numDeletes).sum(), stats.size(),
          stats.stream().mapToLong(WriteStatInfo::totalWriteBytes).sum(), where);
    } else {
      out.printf(FORMAT, i.time(), i.action(), state, "", "", "", "", "", "", where);
    }
  }
}
