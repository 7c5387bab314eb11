package dev.sluice.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ProgressMeter}: reports at stride boundaries once the tick has passed, from many threads in order. */
class ProgressMeterTest {
  @Test
  void reportsOnlyAtStrideBoundariesAfterTheTick() throws InterruptedException {
    List<Progress> got = new ArrayList<>();
    ProgressMeter m = ProgressMeter.start(got::add, Progress.Step.TAG, 10_000, 1024);
    for (int i = 0; i < 5000; i++) {
      m.advance(1);
    }
    // past the tick: the next stride boundary (5120) reports; reports fall on boundaries only
    TimeUnit.NANOSECONDS.sleep(ProgressMeter.TICK_NANOS + 10_000_000L);
    for (int i = 5000; i < 10_000; i++) {
      m.advance(1);
    }
    m.finish();
    m.finish();
    assertEquals(0, got.get(0).done());
    assertEquals(new Progress(Progress.Step.TAG, 10_000, OptionalLong.of(10_000), true), got.get(got.size() - 1));
    assertTrue(got.stream().anyMatch(p -> p.done() == 5120), "the first boundary after the tick reports: " + got);
    for (Progress p : got.subList(1, got.size() - 1)) {
      assertEquals(0, p.done() % 1024, "a report between boundaries: " + got);
    }
  }

  @Test
  void reportsFromManyThreadsNeverGoBack() throws InterruptedException {
    List<Progress> got = new ArrayList<>();
    ProgressMeter m = ProgressMeter.start(got::add, Progress.Step.WRITE_FILE_GROUPS, 4 * 2000, 1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread th = new Thread(() -> {
        for (int i = 0; i < 2000; i++) {
          m.advance(1);
          if (i % 500 == 0) {
            try {
              Thread.sleep(30);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    m.finish();
    for (int i = 1; i < got.size(); i++) {
      assertTrue(got.get(i).done() >= got.get(i - 1).done(), "went back: " + got);
    }
    assertEquals(8000, got.get(got.size() - 1).done());
  }

  @Test
  void theSilentListenerGetsTheMeterThatDoesNothing() {
    assertSame(ProgressMeter.OFF, ProgressMeter.start(ProgressListener.NONE, Progress.Step.SCAN, 3, 1));
    ProgressMeter.OFF.advance(5);
    ProgressMeter.OFF.finish();
    assertEquals(0, ProgressMeter.OFF.done());
  }
}
