package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.internal.service.Compactor;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The compactor process of {@link CompactorProcessTest}: {@code CompactorMain <table> <intervalMillis> k=v...} runs a
 * {@link Compactor} until its standard input closes, printing {@code COMPACTED <instant> <records>} per compaction and
 * {@code FAILED <message>} per failed round, then {@code END}.
 */
public final class CompactorMain {
  private CompactorMain() {
  }

  /** Entry point. */
  public static void main(String[] args) throws IOException {
    Map<String, String> options = new HashMap<>();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Table t = Tables.open(args[0], Config.of(options));
    try (Compactor c = Compactor.builder(TableInternals.compaction(t)).interval(Duration.ofMillis(Long.parseLong(args[1])))
        .onCompleted(r -> print("COMPACTED " + r.instantTime() + " " + r.recordsWritten()))
        .onFailure(e -> print("FAILED " + e.getMessage().replace('\n', ' ')))
        .start()) {
      c.wake();
      print("READY");
      while (System.in.read() >= 0) {
        c.wake();
      }
    }
    print("END");
  }

  private static synchronized void print(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
