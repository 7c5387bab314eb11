package dev.sluice.storageit;

import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Rounds of writers racing to {@code createExclusive} the same file, started together by a barrier. */
final class ExclusiveRace {
  /**
   * What happened.
   *
   * @param winnersPerRound per round, the writers whose call returned normally
   * @param contents per round and writer, what it tried to publish
   * @param stored per round, what the file holds afterwards
   */
  record Outcome(List<List<Integer>> winnersPerRound, List<List<byte[]>> contents, List<byte[]> stored) {
    byte[] contentOf(int round, int writer) {
      return contents.get(round).get(writer);
    }

    byte[] stored(int round) {
      return stored.get(round);
    }
  }

  private ExclusiveRace() {
  }

  static String target(int round) {
    return String.format("%03d.commit", round);
  }

  static List<String> targetNames(int rounds) {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      out.add(target(r));
    }
    return out;
  }

  /** Runs {@code rounds} races of {@code writers} threads in {@code dir}. */
  static Outcome run(Storage s, String dir, int rounds, int writers) throws IOException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<List<Integer>> winners = new ArrayList<>();
    List<List<byte[]>> contents = new ArrayList<>();
    List<byte[]> stored = new ArrayList<>();
    try {
      for (int round = 0; round < rounds; round++) {
        String path = dir + "/" + target(round);
        CyclicBarrier start = new CyclicBarrier(writers);
        List<byte[]> mine = new ArrayList<>();
        List<Future<Boolean>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          byte[] content = new byte[3000 + w];
          new Random(round * 31L + w).nextBytes(content);
          mine.add(content);
          results.add(pool.submit(() -> {
            start.await();
            try {
              s.createExclusive(path, content);
              return true;
            } catch (FileAlreadyExistsException e) {
              return false;
            }
          }));
        }
        List<Integer> won = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          if (get(results.get(w))) {
            won.add(w);
          }
        }
        winners.add(won);
        contents.add(mine);
        try (SeekableInput in = s.openRead(path)) {
          stored.add(in.readAllBytes());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return new Outcome(winners, contents, stored);
  }

  private static boolean get(Future<Boolean> f) throws IOException, InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw new IOException("a racing writer failed", e.getCause());
    }
  }
}
