package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteStat;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

  @Option(names = "--archived", description = "Also list the instants archived to .hoodie/archived, oldest first.")
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
    TimelineStore store = new TimelineStore(t.storage(), t.location());
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Json.print(out, json(t, store));
      return 0;
    }
    out.printf(FORMAT, "instant", "action", "state", "operation", "inserted", "updated", "deleted", "files", "bytes",
        archived ? "  timeline" : "");
    if (archived) {
      for (ArchivedInstant a : latestStates(ArchiveLog.of(t.storage(), t.location()).read())) {
        print(out, a.instant(), a.commitMetadata(), "  archived");
      }
    }
    for (Instant i : t.timeline().instants()) {
      Optional<CommitMetadata> md = isCommit(i) ? store.readCommitMetadata(i) : Optional.empty();
      String details = md.isPresent() ? "" : InstantDetails.of(store, i).map(d -> "  " + d).orElse("");
      print(out, i, md, (archived ? "  active" : "") + details);
    }
    out.flush();
    return 0;
  }

  private ObjectNode json(Table t, TimelineStore store) {
    ArrayNode instants = Json.array();
    if (archived) {
      for (ArchivedInstant a : latestStates(ArchiveLog.of(t.storage(), t.location()).read())) {
        instants.add(entry(a.instant(), a.commitMetadata(), "archived", Optional.empty()));
      }
    }
    for (Instant i : t.timeline().instants()) {
      Optional<CommitMetadata> md = isCommit(i) ? store.readCommitMetadata(i) : Optional.empty();
      instants.add(entry(i, md, "active", md.isPresent() ? Optional.empty() : InstantDetails.of(store, i)));
    }
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.set("instants", instants);
    return doc;
  }

  private static ObjectNode entry(Instant i, Optional<CommitMetadata> md, String timeline, Optional<String> details) {
    ObjectNode o = Json.object();
    o.put("time", i.time());
    o.put("action", i.action().id());
    o.put("state", i.state().name());
    o.put("timeline", timeline);
    if (md.isPresent()) {
      List<WriteStat> stats = md.get().allStats();
      o.put("operation", md.get().operationType().name());
      o.put("inserted", stats.stream().mapToLong(WriteStat::numInserts).sum());
      o.put("updated", stats.stream().mapToLong(WriteStat::numUpdateWrites).sum());
      o.put("deleted", stats.stream().mapToLong(WriteStat::numDeletes).sum());
      o.put("files", stats.size());
      o.put("bytes", stats.stream().mapToLong(WriteStat::totalWriteBytes).sum());
    } else {
      for (String f : new String[] {"operation", "inserted", "updated", "deleted", "files", "bytes"}) {
        o.putNull(f);
      }
    }
    o.set("details", Json.tree(details));
    return o;
  }

  /** One line per archived (time, action): its latest state, as the active timeline shows instants. */
  private static List<ArchivedInstant> latestStates(List<ArchivedInstant> all) {
    Map<String, ArchivedInstant> latest = new HashMap<>();
    List<String> order = new ArrayList<>();
    for (ArchivedInstant a : all) {
      String key = a.instant().time() + "." + a.instant().action().completedAs().id();
      ArchivedInstant prev = latest.get(key);
      if (prev == null) {
        order.add(key);
      }
      if (prev == null || prev.instant().state().compareTo(a.instant().state()) < 0) {
        latest.put(key, a);
      }
    }
    List<ArchivedInstant> out = new ArrayList<>();
    for (String k : order) {
      out.add(latest.get(k));
    }
    out.sort((x, y) -> x.instant().compareTo(y.instant()));
    return out;
  }

  private static boolean isCommit(Instant i) {
    return i.isCompleted() && (i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT
        || i.action() == Action.REPLACECOMMIT);
  }

  private static void print(PrintWriter out, Instant i, Optional<CommitMetadata> md, String where) {
    String state = i.state().name().toLowerCase(Locale.ROOT);
    if (md.isPresent()) {
      List<WriteStat> stats = md.get().allStats();
      out.printf(FORMAT, i.time(), i.action().id(), state, md.get().operationType(),
          stats.stream().mapToLong(WriteStat::numInserts).sum(), stats.stream().mapToLong(WriteStat::numUpdateWrites).sum(),
          stats.stream().mapToLong(WriteStat::numDeletes).sum(), stats.size(),
          stats.stream().mapToLong(WriteStat::totalWriteBytes).sum(), where);
    } else {
      out.printf(FORMAT, i.time(), i.action().id(), state, "", "", "", "", "", "", where);
    }
  }
}
