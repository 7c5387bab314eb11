package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.internal.timeline.Action;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A separate compactor process runs the compactions this process's writes schedule, while this process keeps writing:
 * after every write the snapshot equals the expected rows, and at the end every planned compaction completed.
 */
class CompactorProcessTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.compact.schedule.inline", "true",
      "hoodie.compact.inline.max.delta.commits", "2", "sluice.write.parallelism", "1");

  @TempDir
  Path dir;

  private static void awaitCompleted(Table t, CompactFixture.Model model, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (TableInternals.timeline(t).filter(i -> i.isCompleted() && i.action() == Action.COMMIT).instants().size() < n) {
      assertTrue(System.nanoTime() < deadline, "the compactor process finished no compaction: " + TableInternals.timeline(t));
      assertEquals(model.expected(), CompactFixture.snapshot(t));
      Thread.sleep(100);
    }
  }

  @Test
  void writesAndAnotherProcessCompactingKeepTheSnapshotRight() throws IOException, InterruptedException {
    Table t = CompactFixture.create(dir, OPTIONS);
    CompactFixture.Model model = new CompactFixture.Model();
    List<GenericRecord> a = round(0, 40, 1, "a");
    t.insert(a.iterator());
    model.upsert(a);

    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        CompactorMain.class.getName(), dir.toString(), "100"));
    CompactFixture.BASE.forEach((k, v) -> cmd.add(k + "=" + v));
    OPTIONS.forEach((k, v) -> cmd.add(k + "=" + v));
    Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        OutputStream toChild = child.getOutputStream()) {
      assertEquals("READY", out.readLine());
      for (int i = 0; i < 12; i++) {
        List<GenericRecord> u = round((i * 11) % 40, 9, 10 + i, "u" + i);
        t.upsert(u.iterator());
        model.upsert(u);
        if (i % 5 == 4) {
          List<GenericRecord> gone = round((i * 3) % 40, 2, 100 + i, null);
          t.delete(gone.iterator());
          model.delete(gone);
        }
        toChild.write('\n');
        toChild.flush();
        assertEquals(model.expected(), CompactFixture.snapshot(t), "after write " + i + ", " + TableInternals.timeline(t));
        if (i == 5) {
          // let the other process finish one, so that the later writes schedule more (reading all along)
          awaitCompleted(t, model, 1);
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!t.compaction().pending().isEmpty() && System.nanoTime() < deadline) {
        assertEquals(model.expected(), CompactFixture.snapshot(t));
        Thread.sleep(100);
      }
      toChild.close();
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    } finally {
      if (!child.waitFor(60, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
    assertEquals(0, child.exitValue(), lines.toString());
    assertEquals("END", lines.get(lines.size() - 1), lines.toString());
    assertTrue(lines.stream().noneMatch(l -> l.startsWith("FAILED")), lines.toString());
    long compactedByChild = lines.stream().filter(l -> l.startsWith("COMPACTED ")).count();
    long completed = TableInternals.timeline(t).filter(i -> i.isCompleted() && i.action() == Action.COMMIT).instants().size();
    assertTrue(compactedByChild >= 2, "one before the pause and one after: " + lines);
    assertEquals(completed, compactedByChild, "every compaction was run by the other process");
    assertTrue(t.compaction().pending().isEmpty());
    assertEquals(model.expected(), CompactFixture.snapshot(t));
  }
}
