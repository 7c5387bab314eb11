package dev.sluice.internal.timeline.lsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LsmArchival} on a version-9 table: the rows it archives (completed file bytes, plans), the active files it
 * removes, and what readers make of the result: the file-system view places a log of an archived delta commit by
 * the completion time the archive gives it.
 */
class LsmArchivalTest {
  // 100 insert done at 101; 200 deltacommit done at 450 (after the compaction 300 was requested); 250 clean done
  // at 260; 300 compaction done at 400; 500 deltacommit done at 510
  private static final String[] TIMELINE = {
      "100.commit.requested", "100.inflight", "100_101.commit",
      "200.deltacommit.requested", "200.deltacommit.inflight", "200_450.deltacommit",
      "250.clean.requested", "250.clean.inflight", "250_260.clean",
      "300.compaction.requested", "300.compaction.inflight", "300_400.commit",
      "500.deltacommit.requested", "500.deltacommit.inflight", "500_510.deltacommit"};

  @TempDir
  Path dir;
  private Path timeline;

  @BeforeEach
  void table() throws IOException {
    Path meta = Files.createDirectories(dir.resolve(".hoodie"));
    Files.writeString(meta.resolve("hoodie.properties"), "hoodie.table.name=t\nhoodie.table.version=9\n"
        + "hoodie.table.type=MERGE_ON_READ\nhoodie.timeline.layout.version=2\nhoodie.timeline.path=timeline\n"
        + "hoodie.timeline.history.path=history\n");
    timeline = Files.createDirectories(meta.resolve("timeline"));
    for (String f : TIMELINE) {
      Files.writeString(timeline.resolve(f), f.endsWith(".requested") && f.contains("commit") ? "" : "content of " + f);
    }
    Files.createDirectories(dir.resolve(".hoodie/.temp/200"));
    Path p1 = Files.createDirectories(dir.resolve("p1"));
    Files.write(p1.resolve(".hoodie_partition_metadata"), new byte[] {1});
    for (String name : List.of("f1_0-0-0_100.parquet", ".f1_200.log.1_0-0-0", "f1_0-0-0_300.parquet",
        ".f1_500.log.1_0-0-0")) {
      Files.write(p1.resolve(name), new byte[] {1});
    }
  }

  private LsmArchival archival() {
    LocalStorage storage = new LocalStorage();
    return LsmArchival.of(storage, dir.toString(), TableConfigStore.read(storage, dir.toString()), LsmSettings.DEFAULTS);
  }

  private List<String> active() throws IOException {
    try (Stream<Path> s = Files.list(timeline)) {
      return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private byte[] content(String file) {
    return ("content of " + file).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void archivesRowsAsHudiAndRemovesEveryStateFile() throws IOException {
    LsmArchival.Result r = archival().archive(List.of(Instant.completed("200", Action.DELTACOMMIT),
        Instant.completed("100", Action.COMMIT), Instant.completed("250", Action.CLEAN),
        Instant.completed("300", Action.COMMIT))).orElseThrow();
    assertEquals("100_300_0.parquet", r.file());
    assertEquals(12, r.deletedFiles());
    assertEquals(List.of("500.deltacommit.inflight", "500.deltacommit.requested", "500_510.deltacommit"), active());
    assertFalse(Files.exists(dir.resolve(".hoodie/.temp/200")), "the archived instant's markers are gone");

    List<LsmInstant> rows = archival().timeline().instantsWithDetails();
    assertEquals(List.of("100_101.commit", "200_450.deltacommit", "250_260.clean", "300_400.commit"),
        rows.stream().map(LsmInstant::toString).toList());
    assertArrayEquals(content("200_450.deltacommit"), rows.get(1).metadata().orElseThrow());
    assertEquals(Optional.empty(), rows.get(1).plan().map(String::new), "no plan for a delta commit");
    assertArrayEquals(content("250.clean.requested"), rows.get(2).plan().orElseThrow(), "the clean plan");
    assertArrayEquals(content("300.compaction.requested"), rows.get(3).plan().orElseThrow(), "the compaction plan");

    // the log of the archived delta commit 200 joins the compaction's slice (its completion 450 follows 300), as
    // in the active timeline; placed by its requested time it would have joined the slice of 100
    FileSystemView view = FileSystemView.of(new LocalStorage(), dir.toString(),
        new TimelineStore(new LocalStorage(), dir.toString(), TimelineLayout.of(TableConfigStore.read(new LocalStorage(),
            dir.toString()))).load());
    FileSlice latest = view.latestSlices("p1").get(0);
    assertEquals("300", latest.baseInstant());
    assertEquals(List.of(".f1_200.log.1_0-0-0", ".f1_500.log.1_0-0-0"),
        latest.logFiles().stream().map(LogFile::fileName).toList());
  }

  @Test
  void aReplaceCommitKeepsItsInflightAsPlanAndAnArchivedInstantIsSkipped() throws IOException {
    Files.writeString(timeline.resolve("150.replacecommit.requested"), "requested replace");
    Files.writeString(timeline.resolve("150.replacecommit.inflight"), "inflight replace");
    Files.writeString(timeline.resolve("150_160.replacecommit"), "replace done");
    LsmArchival a = archival();
    a.archive(List.of(Instant.completed("150", Action.REPLACECOMMIT))).orElseThrow();
    LsmInstant row = a.timeline().instantsWithDetails().get(0);
    assertEquals("150_160.replacecommit", row.toString());
    assertArrayEquals("inflight replace".getBytes(StandardCharsets.UTF_8), row.plan().orElseThrow());
    // archived already (by a concurrent archival): nothing to do, nothing written
    assertEquals(Optional.empty(), a.archive(List.of(Instant.completed("150", Action.REPLACECOMMIT))));
    assertEquals(List.of(1), a.timeline().versions());
    assertTrue(active().contains("100_101.commit"));
  }
}
