package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.Tables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice commits compare}: the completed commits (commit, delta commit, replacecommit) one table has and the
 * other lacks, by instant time, and which table is ahead (hudi-cli {@code commits compare}), e.g. a table and its
 * copy or replica.
 */
@Command(name = "compare", description = "Compare the completed commits of two tables by instant time: the commits "
    + "each has that the other lacks, and which is ahead (hudi-cli: commits compare).")
final class CommitsCompareCommand implements Callable<Integer> {
  static final List<String> COLUMNS = List.of("instant", "action", "onlyIn");

  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @Parameters(index = "1", paramLabel = "OTHER", description = "The table to compare it with.")
  String other;

  @Mixin
  ViewOptions view;

  @Mixin
  CommonOptions common;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table a = Tables.open(table, common.config());
    Table b = Tables.open(other, common.config());
    Map<String, String> mine = commits(a.inspect());
    Map<String, String> theirs = commits(b.inspect());
    List<ObjectNode> rows = new ArrayList<>();
    int onlyMine = 0;
    int onlyTheirs = 0;
    TreeMap<String, String> union = new TreeMap<>(mine);
    theirs.forEach(union::putIfAbsent);
    for (Map.Entry<String, String> e : union.entrySet()) {
      boolean inMine = mine.containsKey(e.getKey());
      boolean inTheirs = theirs.containsKey(e.getKey());
      if (inMine && inTheirs) {
        continue;
      }
      ObjectNode r = Json.object();
      r.put("instant", e.getKey());
      r.put("action", e.getValue());
      r.put("onlyIn", inMine ? "TABLE" : "OTHER");
      rows.add(r);
      if (inMine) {
        onlyMine++;
      } else {
        onlyTheirs++;
      }
    }
    String verdict = verdict(onlyMine, onlyTheirs);
    List<ObjectNode> shown = view.apply(rows, COLUMNS);
    PrintWriter out = spec.commandLine().getOut();
    if (view.json) {
      ObjectNode doc = Json.object();
      doc.put("table", a.location());
      doc.put("other", b.location());
      doc.put("tableCommits", mine.size());
      doc.put("otherCommits", theirs.size());
      doc.set("tableLatest", Json.tree(last(mine)));
      doc.set("otherLatest", Json.tree(last(theirs)));
      doc.put("onlyInTable", onlyMine);
      doc.put("onlyInOther", onlyTheirs);
      doc.put("verdict", verdict);
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      Json.print(out, doc);
      return 0;
    }
    out.printf("TABLE %s: %d commits, latest %s%nOTHER %s: %d commits, latest %s%n", a.location(), mine.size(),
        last(mine).orElse("-"), b.location(), theirs.size(), last(theirs).orElse("-"));
    if (!rows.isEmpty()) {
      TextTable.print(out, COLUMNS, shown);
    }
    out.println(switch (verdict) {
      case "same" -> "TABLE and OTHER have the same commits";
      case "ahead" -> "TABLE is ahead of OTHER by " + onlyMine + " commit" + (onlyMine == 1 ? "" : "s");
      case "behind" -> "TABLE is behind OTHER by " + onlyTheirs + " commit" + (onlyTheirs == 1 ? "" : "s");
      default -> "TABLE and OTHER have diverged: " + onlyMine + " commits only in TABLE, " + onlyTheirs
          + " only in OTHER";
    });
    out.flush();
    return 0;
  }

  /** {@code same}, {@code ahead} (TABLE has commits OTHER lacks, not the reverse), {@code behind} or {@code diverged}. */
  static String verdict(int onlyMine, int onlyTheirs) {
    if (onlyMine == 0 && onlyTheirs == 0) {
      return "same";
    }
    if (onlyTheirs == 0) {
      return "ahead";
    }
    return onlyMine == 0 ? "behind" : "diverged";
  }

  /** Completed commits, delta commits and replacecommits of the active timeline, time to action. */
  private static Map<String, String> commits(TableInspection store) {
    Map<String, String> out = new TreeMap<>();
    for (InstantInfo i : store.timeline()) {
      if (i.isCompleted() && (i.action().equals("commit") || i.action().equals("deltacommit")
          || i.action().equals("replacecommit"))) {
        out.put(i.time(), i.action());
      }
    }
    return out;
  }

  private static Optional<String> last(Map<String, String> commits) {
    return commits.isEmpty() ? Optional.empty() : Optional.of(((TreeMap<String, String>) commits).lastKey());
  }
}
