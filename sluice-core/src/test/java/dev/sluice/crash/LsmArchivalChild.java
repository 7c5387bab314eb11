package dev.sluice.crash;

import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.lsm.LsmArchival;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import dev.sluice.storage.LocalStorage;
import java.util.ArrayList;
import java.util.List;

/**
 * The child JVM of {@link LsmArchivalKillPointsTest}: {@code LsmArchivalChild <table> <time>...} archives the given
 * delta commits of a version-9 table with layers merged every 2 files; a kill point armed with
 * {@code -Dsluice.killpoint} stops it dead.
 */
public final class LsmArchivalChild {
  private LsmArchivalChild() {
  }

  /** Entry point. */
  public static void main(String[] args) {
    archive(args[0], List.of(args).subList(1, args.length));
  }

  static void archive(String table, List<String> times) {
    LocalStorage storage = new LocalStorage();
    List<Instant> chosen = new ArrayList<>();
    for (String t : times) {
      chosen.add(Instant.completed(t, Action.DELTACOMMIT));
    }
    LsmArchival.of(storage, table, TableConfigStore.read(storage, table), new LsmSettings("gzip", 2)).archive(chosen);
  }
}
