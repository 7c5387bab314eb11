package dev.sluice.internal.commit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Telling a live holder from a gone one by the owner text: a live process on this host stays alive however the
 * JVMs' views of its start instant drift apart (each JVM adds its own reading of the boot time, which moves when the
 * wall clock is stepped), and a pid now held by a process that started at another tick is a reused pid.
 */
class OwnersTest {
  @Test
  void aLiveProcessIsAliveWhenItsRecordedStartInstantDriftedAndGoneWhenItsStartTickDiffers()
      throws IOException, InterruptedException {
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), SleepMain.class.getName()).start();
    try {
      long pid = child.pid();
      String host = InetAddress.getLocalHost().getHostName();
      Instant start = child.info().startInstant().orElseThrow();
      String anHourOff = start.minus(Duration.ofHours(1)).toString();
      String oneSecondOff = start.plusSeconds(1).toString();

      assertFalse(Owners.isGone(owner(host, pid, oneSecondOff, "")),
          "a start instant a second away (another JVM's boot time) is the same process");
      assertTrue(Owners.isGone(owner(host, pid, anHourOff, "")), "without ticks, an hour apart is a reused pid");
      assertFalse(Owners.isGone(owner(host, pid, start.toString(), "")));

      assumeTrue(Owners.startTicks(pid).isPresent(), "no /proc here: start ticks are not recorded");
      long ticks = Owners.startTicks(pid).get();
      assertFalse(Owners.isGone(owner(host, pid, anHourOff, ",\"processStartTicks\":" + ticks)),
          "the kernel's start tick decides: the instant may be off by any clock step");
      assertTrue(Owners.isGone(owner(host, pid, start.toString(), ",\"processStartTicks\":" + (ticks - 1))),
          "another start tick is another process behind the same pid");
      assertTrue(Owners.describe("t").contains("\"processStartTicks\":" + Owners.startTicks(ProcessHandle.current()
          .pid()).get()), Owners.describe("t"));
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(1, TimeUnit.MINUTES));
    }
    assertTrue(Owners.isGone(owner(InetAddress.getLocalHost().getHostName(), child.pid(), "", "")),
        "a process that no longer runs");
  }

  private static String owner(String host, long pid, String start, String ticks) {
    return "{\"lockCreateTime\":\"x\",\"host\":\"" + host + "\",\"pid\":" + pid + ",\"processStart\":\"" + start
        + "\"" + ticks + ",\"token\":\"other\"}";
  }

  /** A child that only waits to be killed. */
  public static final class SleepMain {
    private SleepMain() {
    }

    /** Sleeps for a minute. */
    public static void main(String[] args) throws InterruptedException {
      Thread.sleep(60_000);
    }
  }
}
