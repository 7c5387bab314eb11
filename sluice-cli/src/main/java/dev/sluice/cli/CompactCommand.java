package dev.sluice.cli;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.CompactionPlanInfo;
import dev.sluice.api.CompactionScheduling;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.TableCompaction;
import dev.sluice.api.TableCompaction.BackgroundCompactor;
import dev.sluice.api.SluiceException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice compact}: schedule a compaction of a Merge-on-Read table, run pending ones, or keep running them as a
 * separate process; with no mode, list the pending compactions.
 */
@Command(name = "compact", description = "Merge-on-Read compaction: --schedule plans one (when the trigger fires; "
    + "--force: whenever some slice has log files), --run runs a pending one (all if no INSTANT), --watch keeps running "
    + "the ones writers schedule until stopped. Without a mode: list pending compactions.")
final class CompactCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "Table path or URI.")
  String table;

  @ArgGroup(exclusive = true)
  Mode mode;

  static final class Mode {
    @Option(names = "--schedule", description = "Plan a compaction into <instant>.compaction.requested.")
    boolean schedule;

    @Option(names = "--run", arity = "0..1", paramLabel = "INSTANT", fallbackValue = "",
        description = "Run the pending compaction INSTANT, or every pending one, oldest first.")
    String run;

    @Option(names = "--watch", description = "Run pending compactions every --interval seconds until stopped.")
    boolean watch;
  }

  @Option(names = "--force", description = "With --schedule (or --watch --schedule-too): ignore the trigger.")
  boolean force;

  @Option(names = "--interval", paramLabel = "S", defaultValue = "60",
      description = "With --watch: seconds between rounds (default 60).")
  long interval;

  @Option(names = "--schedule-too", description = "With --watch: also schedule a compaction each round when the "
      + "trigger fires. Only safe if no other process writes, or with optimistic concurrency control.")
  boolean scheduleToo;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "0",
      description = "With --watch: stop after N rounds (default 0: until the process is stopped).")
  int rounds;

  @Mixin
  CommonOptions common;

  @Mixin
  ProgressOptions progress;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Table t = Tables.open(table, common.config());
    TableCompaction c = t.compaction();
    PrintWriter out = spec.commandLine().getOut();
    if (mode == null) {
      list(t, c, out);
    } else if (mode.schedule) {
      // the reason is the scheduler's own, with its figures
      CompactionScheduling s = c.attemptSchedule(force);
      if (s.scheduled()) {
        out.printf("scheduled compaction %s: %d file groups%n", s.instant().get(),
            c.plan(s.instant().get()).operations().size());
      } else {
        out.println("no compaction scheduled: " + s.explanation()
            + (s.reason() == CompactionScheduling.Reason.TRIGGER_NOT_REACHED ? " (--force ignores the trigger)" : ""));
      }
    } else if (mode.run != null) {
      List<String> todo = mode.run.isEmpty() ? c.pending() : List.of(mode.run);
      if (todo.isEmpty()) {
        out.println("no pending compaction");
      }
      try (ProgressDisplay display = ProgressDisplay.of(progress, spec.commandLine().getErr(), false)) {
        for (String instant : todo) {
          print(out, c.run(instant, display));
        }
      }
    } else {
      watch(c, out);
    }
    out.flush();
    return 0;
  }

  private void list(Table t, TableCompaction c, PrintWriter out) {
    List<InstantInfo> pending = t.inspect().pendingCompactions();
    if (pending.isEmpty()) {
      out.println("no pending compaction");
    }
    for (InstantInfo i : pending) {
      CompactionPlanInfo plan = c.plan(i.time());
      out.printf("%s  %-9s  %d file groups, %d log files%n", i.time(), i.state().name().toLowerCase(
          java.util.Locale.ROOT), plan.operations().size(),
          plan.operations().stream().mapToInt(o -> o.deltaFileNames().size()).sum());
    }
  }

  private static void print(PrintWriter out, CompactionInfo r) {
    out.printf("compaction %s: %d base files written, %d records, %d log files compacted%n", r.instantTime(),
        r.baseFilesWritten(), r.recordsWritten(), r.logFilesCompacted());
    out.flush();
  }

  private void watch(TableCompaction c, PrintWriter out) {
    if (interval <= 0) {
      throw SluiceException.badRequest("--interval " + interval, "it is not positive", "Give a number of seconds above 0.");
    }
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch done = new CountDownLatch(1);
    // each compaction a round runs shows its progress as 'compact --run' does (stderr; --quiet: none)
    ProgressDisplay display = ProgressDisplay.of(progress, err, false);
    BackgroundCompactor compactor = c.background().interval(Duration.ofSeconds(interval)).schedule(scheduleToo)
        .progress(display)
        .onCompleted(r -> print(out, r))
        .onFailure(e -> {
          err.println("error: " + e.getMessage() + " (retrying next round)");
          err.flush();
        })
        .start();
    Thread hook = new Thread(() -> {
      compactor.close();
      display.close();
      done.countDown();
    }, "sluice-compact-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    out.printf("watching %s for pending compactions every %d s%n", table, interval);
    out.flush();
    try {
      if (rounds <= 0) {
        // until the process is stopped: the shutdown hook lets the running compaction finish
        done.await();
        return;
      }
      for (int i = 0; i < rounds; i++) {
        if (i > 0) {
          Thread.sleep(interval * 1000);
        }
        if (!compactor.drain(Duration.ofDays(1))) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    compactor.close();
    display.close();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down already; its hook closes the compactor too
      return;
    }
  }
}
