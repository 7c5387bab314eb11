package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slice whose log records are many times the budget and the heap reads correctly in a small JVM: runs
 * {@link SpillMemoryCheck} in a child JVM with {@code -Xmx64m}, 16 MiB budget, 200 MiB of encoded records.
 */
class SpillableMapMemoryTest {
  @TempDir
  Path dir;

  @Test
  void recordsFarBeyondTheHeapAreAllReadBackInASixtyFourMegabyteJvm() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = List.of(java.toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
        SpillMemoryCheck.class.getName(), dir.toString(), String.valueOf(16L << 20), String.valueOf(200L << 20));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean ended = child.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      child.destroyForcibly();
    }
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    System.out.println(output);
    assertTrue(ended, "child JVM did not finish: " + output);
    assertEquals(0, child.exitValue(), "child JVM failed: " + output);
    assertTrue(output.contains("OK records="), output);
  }
}
