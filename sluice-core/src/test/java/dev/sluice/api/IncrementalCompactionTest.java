package dev.sluice.api;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.IncrementalQueryTest.BEGINNING;
import static dev.sluice.api.IncrementalQueryTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.WriteModel.Version;
import dev.sluice.internal.compact.CompactionResult;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Incremental queries on Merge-on-Read tables that Sluice compacts between writes: compaction rewrites log records into
 * new base files but keeps each record's commit time, so every range (before, spanning and after the compaction)
 * returns each record once, as the sequence of writes implies ({@link WriteModel}); a range holding only the
 * compaction returns nothing.
 */
class IncrementalCompactionTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"mor", "mor-small-files"})
  void rangesBeforeAcrossAndAfterACompaction(String kind) {
    Table t = IncrementalQueryTest.table(dir, kind);
    Random rnd = new Random(17L + kind.hashCode());
    WriteModel model = new WriteModel();
    TreeSet<String> deletedKeys = new TreeSet<>();
    IncrementalQueryTest.writeCommits(t, rnd, model, deletedKeys, 0, 4);
    assertTrue(logFilesInLatestSlices(t) > 0, "the writes left records in log files");
    String before = last(model.instants());

    String compaction = t.compaction().scheduleNow().orElseThrow();
    CompactionResult result = TableInternals.compaction(t).run(compaction);
    assertTrue(result.logFilesCompacted() > 0, "the compaction merged log files");
    assertEquals(0, logFilesInLatestSlices(t), "every slice was compacted");
    assertTrue(t.timeline().completed().find(compaction).isPresent(), compaction);

    IncrementalQueryTest.writeCommits(t, rnd, model, deletedKeys, 4, 7);
    assertTrue(logFilesInLatestSlices(t) > 0, "the later writes went to logs of the compacted slices");

    assertOnlyCompactionRangeIsEmpty(t, before, compaction);
    assertEveryRange(t, model, compaction);
  }

  @ParameterizedTest
  @ValueSource(strings = {"mor", "mor-small-files"})
  void deltaCommitsWhileACompactionIsPending(String kind) {
    Table t = IncrementalQueryTest.table(dir, kind);
    Random rnd = new Random(29L + kind.hashCode());
    WriteModel model = new WriteModel();
    TreeSet<String> deletedKeys = new TreeSet<>();
    IncrementalQueryTest.writeCommits(t, rnd, model, deletedKeys, 0, 4);
    String before = last(model.instants());

    String compaction = t.compaction().scheduleNow().orElseThrow();
    IncrementalQueryTest.writeCommits(t, rnd, model, deletedKeys, 4, 7);
    assertEquals(List.of(compaction), t.compaction().pending());
    FileSystemView view = t.fileSystemView();
    boolean logsInNewSlice = view.partitions().stream().flatMap(p -> view.latestSlices(p).stream())
        .anyMatch(s -> s.baseInstant().equals(compaction) && s.baseFile().isEmpty() && !s.logFiles().isEmpty());
    assertTrue(logsInNewSlice, "updates of file groups under compaction went to the slice at the compaction instant");
    assertEveryRange(t, model, null);

    t.compaction().run(compaction);
    assertTrue(t.compaction().pending().isEmpty());
    assertTrue(logFilesInLatestSlices(t) > 0, "the logs written while pending stay after the compacted base files");
    // the compaction completed after the later delta commits, but its instant lies between them and the earlier ones
    assertOnlyCompactionRangeIsEmpty(t, before, compaction);
    assertEveryRange(t, model, compaction);
  }

  /** (before, compaction] holds only the compaction: no record was written in it, none deleted. */
  private static void assertOnlyCompactionRangeIsEmpty(Table t, String before, String compaction) {
    assertTrue(before.compareTo(compaction) < 0);
    Map<Boolean, Map<String, Version>> only = read(t.newScan().incremental(before, compaction).includeDeletes(true));
    assertTrue(only.get(false).isEmpty(), "(" + before + ", " + compaction + "] returned " + only.get(false));
    assertTrue(only.get(true).isEmpty(), "(" + before + ", " + compaction + "] deleted " + only.get(true));
  }

  /**
   * Every range between the write instants (and the compaction instant, if given) returns what the model says: each
   * record once (read fails on a repeat), its version and its original commit time, and the deleted rows.
   */
  private static void assertEveryRange(Table t, WriteModel model, String compaction) {
    List<String> instants = new ArrayList<>(model.instants());
    if (compaction != null) {
      instants.add(compaction);
      instants.sort(null);
    }
    List<String> begins = new ArrayList<>();
    begins.add(BEGINNING);
    begins.addAll(instants);
    String last = last(instants);
    int nonEmpty = 0;
    for (int i = 0; i < begins.size(); i++) {
      String begin = begins.get(i);
      for (int j = i; j < instants.size(); j++) {
        String end = instants.get(j);
        String range = "(" + begin + ", " + end + "]" + (compaction == null ? "" : " compaction " + compaction);
        Map<Boolean, Map<String, Version>> rows = read(t.newScan().incremental(begin, end).includeDeletes(true));
        assertEquals(model.incremental(begin, end), rows.get(false), range);
        assertEquals(model.deleted(begin, end), rows.get(true), range + " deleted rows");
        nonEmpty += rows.get(false).isEmpty() ? 0 : 1;
      }
      Map<Boolean, Map<String, Version>> open = read(t.newScan().incremental(begin));
      assertEquals(model.incremental(begin, last), open.get(false), "from " + begin);
    }
    assertTrue(nonEmpty > 10, "the ranges return rows");
    assertFalse(model.incremental(BEGINNING, last).isEmpty());
  }

  private static int logFilesInLatestSlices(Table t) {
    FileSystemView view = t.fileSystemView();
    int n = 0;
    for (String p : view.partitions()) {
      for (FileSlice s : view.latestSlices(p)) {
        n += s.logFiles().size();
      }
    }
    return n;
  }

  private static String last(List<String> instants) {
    return instants.get(instants.size() - 1);
  }
}
