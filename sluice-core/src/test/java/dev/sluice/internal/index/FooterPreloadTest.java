package dev.sluice.internal.index;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FooterPreload} on a real table of several partitions and base files: what it reads, that tags are the same
 * with and without it, its memory bound, a damaged file, a footer of another size, and that no thread outlives a write.
 */
class FooterPreloadTest {
  private static final String THREAD = "sluice-footer-preload";

  @TempDir
  Path dir;

  private final Storage storage = new LocalStorage();
  private String base;

  @BeforeEach
  void table() {
    Path p = dir.resolve("t");
    base = p.toString();
    Table t = TripFixture.create(p, TripFixture.spec().build(), Map.of("hoodie.parquet.max.file.size", "20000",
        "hoodie.copyonwrite.record.size.estimate", "1000", "hoodie.parquet.small.file.limit", "0"));
    t.insert(it(trips(0, 300, 3, 1)));
    t.insert(it(trips(300, 60, 3, 1)));
  }

  private FileSystemView view() {
    Timeline tl = new TimelineStore(storage, base).load();
    TableConfig config = TableConfigStore.read(storage, base);
    return MetadataTables.view(storage, base, tl, config, true);
  }

  private static IndexSettings bloom() {
    return new IndexSettings("BLOOM", true, false, 2);
  }

  /** The latest base files of every partition, path to size. */
  private Map<String, Long> latestFiles() {
    FileSystemView v = view();
    Map<String, Long> out = new TreeMap<>();
    for (String partition : v.partitions()) {
      for (BaseFile f : v.latestBaseFiles(partition)) {
        out.put(f.path(), f.size());
      }
    }
    return out;
  }

  /** Keys of both inserts in every partition, and new keys. */
  private static List<WriteRecord> batch() {
    List<WriteRecord> records = new ArrayList<>();
    for (int i = 0; i < 360; i += 11) {
      records.add(rec(String.format("id-%06d", i), "p" + (i % 3)));
    }
    records.add(rec("new-1", "p0"));
    records.add(rec("new-2", "p2"));
    return records;
  }

  private static WriteRecord rec(String key, String partition) {
    return new WriteRecord(key, partition, null, 0L, WriteRecord.DeleteKind.NONE);
  }

  /** Each record's tag as "partition/fileId" of an update or "insert:partition", in the order tagged. */
  private static List<String> summary(List<TaggedRecord> tags) {
    List<String> out = new ArrayList<>();
    for (TaggedRecord t : tags) {
      out.add(t.record().key() + "=" + t.location().map(l -> l.partitionPath() + "/" + l.fileId())
          .orElse("insert:" + t.record().partitionPath()));
    }
    return out;
  }

  private static boolean preloadThreadAlive() {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(THREAD) && t.isAlive());
  }

  @Test
  void readsEveryLatestBaseFileAndTagsAlike() {
    Map<String, Long> files = latestFiles();
    assertTrue(files.size() >= 6, "several files per partition: " + files);
    FooterPreload preload = FooterPreload.start(storage, this::view, bloom(), Long.MAX_VALUE);
    preload.awaitEnd();
    assertFalse(preloadThreadAlive());
    Map<String, Long> read = new TreeMap<>();
    preload.stop().forEach((path, pre) -> read.put(path, pre.size()));
    assertEquals(files, read, "every latest base file, with its size");
    preload.stop().values().forEach(pre -> assertTrue(pre.reader().bloomFilter().isPresent()));

    Index plain = Indexes.of(storage, null, bloom());
    List<String> expected = summary(plain.tag(batch(), view()));
    Index warm = Indexes.of(storage, null, bloom(), preload);
    assertEquals(expected, summary(warm.tag(batch(), view())), "same tags, same order");
    assertEquals(plain.filesOpened(), warm.filesOpened(), "a preloaded footer counts as the file opened");
    assertTrue(expected.stream().anyMatch(s -> s.startsWith("id-000011=p2/")), expected.toString());
    assertTrue(expected.contains("new-1=insert:p0"), expected.toString());
    preload.close();
    assertTrue(preload.stop().isEmpty(), "closed, it lets its footers go");
  }

  @Test
  void handsOverTheViewItListed() {
    FooterPreload preload = FooterPreload.start(storage, this::view, bloom(), Long.MAX_VALUE);
    FileSystemView listed = preload.listedView().orElseThrow();
    preload.close();
    Map<String, Long> files = new TreeMap<>();
    for (String partition : listed.partitions()) {
      listed.latestBaseFiles(partition).forEach(f -> files.put(f.path(), f.size()));
    }
    assertEquals(latestFiles(), files);
    assertTrue(FooterPreload.NONE.listedView().isEmpty());
  }

  @Test
  void aTableListedFromStorageIsNotPreloaded() {
    Path p = dir.resolve("plain");
    Table t = TripFixture.create(p, TripFixture.spec().build(), Map.of("hoodie.metadata.enable", "false"));
    t.insert(it(trips(0, 30, 3, 1)));
    TableConfig config = TableConfigStore.read(storage, p.toString());
    Timeline tl = new TimelineStore(storage, p.toString()).load();
    FileSystemView[] made = new FileSystemView[1];
    FooterPreload preload = FooterPreload.start(storage, () -> {
      made[0] = MetadataTables.view(storage, p.toString(), tl, config, false);
      return made[0];
    }, bloom(), Long.MAX_VALUE);
    assertTrue(preload.listedView().isEmpty());
    preload.close();
    assertTrue(preload.stop().isEmpty());
    assertEquals(0, made[0].listCalls(), "not one partition listed");
  }

  @Test
  void stopsAtItsMemoryBound() {
    FooterPreload preload = FooterPreload.start(storage, this::view, bloom(), 0);
    preload.awaitEnd();
    assertEquals(1, preload.stop().size(), "the first footer passes the bound; no more are read");
    assertEquals(summary(Indexes.of(storage, null, bloom()).tag(batch(), view())),
        summary(Indexes.of(storage, null, bloom(), preload).tag(batch(), view())), "the lookups read the rest");
  }

  @Test
  void theRecordIndexPreloadsNothing() {
    FooterPreload preload = FooterPreload.start(storage, this::view, new IndexSettings(Indexes.RECORD_INDEX, true,
        false, 2), Long.MAX_VALUE);
    assertTrue(preload == FooterPreload.NONE);
    preload.close();
    assertTrue(preload.stop().isEmpty());
  }

  @Test
  void aDamagedFileIsLeftOutAndItsLookupReportsIt() throws IOException {
    Map<String, Long> files = latestFiles();
    String damaged = files.keySet().iterator().next();
    byte[] junk = new byte[(int) (long) files.get(damaged)];
    Arrays.fill(junk, (byte) 7);
    Files.write(Path.of(damaged), junk);
    FooterPreload preload = FooterPreload.start(storage, this::view, bloom(), Long.MAX_VALUE);
    preload.awaitEnd();
    assertFalse(preload.stop().containsKey(damaged));
    assertEquals(files.size() - 1, preload.stop().size(), "the other files are read");

    SluiceException without = assertThrows(SluiceException.class,
        () -> Indexes.of(storage, null, bloom()).tag(batch(), view()));
    SluiceException with = assertThrows(SluiceException.class,
        () -> Indexes.of(storage, null, bloom(), preload).tag(batch(), view()));
    assertEquals(without.getMessage(), with.getMessage(), "the lookup's own failure, as without a preload");
    assertTrue(with.getMessage().contains(Path.of(damaged).getFileName().toString()), with.getMessage());
  }

  @Test
  void aFooterOfAnotherSizeIsReadAgain() {
    Map<String, Long> files = latestFiles();
    List<String> paths = new ArrayList<>(files.keySet());
    // every file's entry holds another file's footer: used, it would tag keys into the wrong file groups
    Map<String, FooterPreload.Preloaded> wrong = new HashMap<>();
    for (int i = 0; i < paths.size(); i++) {
      String other = paths.get((i + 1) % paths.size());
      wrong.put(paths.get(i), new FooterPreload.Preloaded(files.get(paths.get(i)) + 1,
          BaseFileReader.open(storage, other, files.get(other))));
    }
    Index checked = new KeyLookupIndex(storage, new BloomCandidates(true), false, false, 2, wrong);
    assertEquals(summary(Indexes.of(storage, null, bloom()).tag(batch(), view())),
        summary(checked.tag(batch(), view())));
  }

  @Test
  void noThreadOutlivesAWriteFailedOrNot() {
    Table t = dev.sluice.api.Tables.open(base, dev.sluice.api.Config.empty());
    t.upsert(it(List.of(trip("id-000001", 5, "p1", "x", 1.0), trip("new-9", 5, "p0", "y", 2.0))));
    assertFalse(preloadThreadAlive(), "after a write");
    List<org.apache.avro.generic.GenericRecord> bad = new ArrayList<>(trips(0, 50, 3, 6));
    bad.add(trip(null, 6, "p0", "no key", 3.0));
    assertThrows(RuntimeException.class, () -> t.upsert(it(bad)));
    assertFalse(preloadThreadAlive(), "after a write refused for a bad record");
    assertEquals(1.0, (double) TripFixture.rows(t).get("id-000001").get("amount"));
  }
}
