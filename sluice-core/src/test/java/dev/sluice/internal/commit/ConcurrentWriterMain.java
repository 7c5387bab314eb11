package dev.sluice.internal.commit;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import java.util.HashMap;
import java.util.Map;

/**
 * A writer process of the multi-process test: {@code ConcurrentWriterMain <table> <writer> <writes> <hot> k=v...}.
 * Prints one line per write, {@code COMMIT <write> <instant> <hotTs> <conflicts>}, then {@code END}. The hot key's
 * ts comes from the wall clock in microseconds, so versions from different processes order by time.
 */
public final class ConcurrentWriterMain {
  private ConcurrentWriterMain() {
  }

  /** Entry point. */
  public static void main(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 4; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Table t = Tables.open(args[0], Config.of(options));
    var outcomes = WriterWorkload.run(t, args[1], Integer.parseInt(args[2]), Boolean.parseBoolean(args[3]),
        () -> System.currentTimeMillis() * 1000 + System.nanoTime() % 1000, args[1].hashCode());
    for (var o : outcomes) {
      System.out.println("COMMIT " + o.write() + " " + o.instant() + " " + o.hotTs() + " " + o.conflicts());
      for (String m : o.conflictMessages()) {
        System.out.println("CONFLICT " + m.replace('\n', ' '));
      }
    }
    System.out.println("END");
  }
}
