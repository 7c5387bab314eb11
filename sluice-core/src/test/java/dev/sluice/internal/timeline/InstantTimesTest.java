package dev.sluice.internal.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class InstantTimesTest {
  @Test
  void newTimesHave17DigitsAndAreNearNow() {
    long before = System.currentTimeMillis();
    String t = InstantTimes.newInstantTime();
    assertEquals(17, t.length());
    assertTrue(t.chars().allMatch(Character::isDigit));
    // not before the call started (times may run ahead of the clock, never behind it)
    assertTrue(InstantTimes.toTime(t).toEpochMilli() >= before - 1, t);
  }

  @Test
  void strictlyIncreasingAcrossEightThreads() throws InterruptedException, ExecutionException {
    int threads = 8;
    int perThread = 10_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<String>>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          List<String> mine = new ArrayList<>(perThread);
          for (int i = 0; i < perThread; i++) {
            mine.add(InstantTimes.newInstantTime());
          }
          return mine;
        }));
      }
      Set<String> all = new HashSet<>();
      for (Future<List<String>> f : futures) {
        List<String> mine = f.get();
        for (int i = 1; i < mine.size(); i++) {
          assertTrue(mine.get(i - 1).compareTo(mine.get(i)) < 0, mine.get(i - 1) + " !< " + mine.get(i));
        }
        all.addAll(mine);
      }
      assertEquals(threads * perThread, all.size(), "every time is unique");
      for (String s : all) {
        // every generated value is a valid date-time
        InstantTimes.toTime(s);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void utcTimesUseUtc() {
    String t = InstantTimes.newInstantTime(ZoneOffset.UTC);
    LocalDateTime parsed = LocalDateTime.ofInstant(InstantTimes.toTime(t, ZoneOffset.UTC), ZoneOffset.UTC);
    assertEquals(t.substring(0, 8), String.format("%04d%02d%02d", parsed.getYear(), parsed.getMonthValue(),
        parsed.getDayOfMonth()));
  }

  @Test
  void parsesBothForms() {
    ZoneId utc = ZoneOffset.UTC;
    assertEquals(java.time.Instant.parse("2024-01-02T03:04:05.678Z"), InstantTimes.toTime("20240102030405678", utc));
    // 14-digit instants get Hudi's default ".999"
    assertEquals(java.time.Instant.parse("2024-01-02T03:04:05.999Z"), InstantTimes.toTime("20240102030405", utc));
    assertEquals("20240102030405678", InstantTimes.format(java.time.Instant.parse("2024-01-02T03:04:05.678Z"), utc));
  }

  @Test
  void rejectsInvalidTimes() {
    assertThrows(SluiceException.class, () -> InstantTimes.toTime("20241301000000000"));
    assertThrows(SluiceException.class, () -> InstantTimes.toTime("2024"));
    assertThrows(SluiceException.class, () -> InstantTimes.toTime("00000000000000"));
  }

  @Test
  void comparesAsStrings() {
    assertTrue(InstantTimes.compare("001", "002") < 0);
    assertTrue(InstantTimes.compare("20240101000000", "20240101000000000") < 0);
    assertEquals(0, InstantTimes.compare("5", "5"));
    assertTrue(InstantTimes.isBefore("001", "002"));
    assertTrue(InstantTimes.isBeforeOrEqual("002", "002"));
  }
}
