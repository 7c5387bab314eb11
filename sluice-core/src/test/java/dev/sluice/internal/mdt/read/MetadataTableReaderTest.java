package dev.sluice.internal.mdt.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.StorageListing;
import dev.sluice.internal.hfile.HFileWriter;
import dev.sluice.internal.hfile.HFileWriterOptions;
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.avro.InstantInfo;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata-table reader on the metadata table Hudi 0.15 wrote (golden {@code cow_with_metadata_table}: a
 * non-partitioned Copy-on-Write table, two commits) and on record-index partitions built here with Sluice's HFile and
 * log writers, where each trust rule of a Hudi 0.15 reader decides a key.
 */
public class MetadataTableReaderTest {
  private static final String T1 = "20260101000000001";
  private static final String T2 = "20260101000000002";
  private static final String T3 = "20260101000000003";
  private static final String INIT = "00000000000000010";
  private static final String FIRST_PARQUET = "af4a4bd4-119a-4e07-a09c-6b57863275b5-0_0-0-0_20261201203732298.parquet";
  private static final String SECOND_PARQUET = "af4a4bd4-119a-4e07-a09c-6b57863275b5-0_0-0-0_20261201203733578.parquet";

  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  /** Copies the golden table Hudi 0.15 wrote with its metadata table to {@code to} (without .crc files). */
  public static Path golden(Path to) {
    Path from = Path.of(MetadataTableReaderTest.class.getResource("/golden/cow_with_metadata_table/.hoodie/hoodie.properties")
        .getPath()).getParent().getParent();
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().endsWith(".crc")) {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return to;
  }

  private Timeline timeline(Path table) {
    return new TimelineStore(storage, table.toString()).load();
  }

  private MetadataTableReader reader(Path table) {
    return MetadataTableReader.open(storage, table.toString(), timeline(table)).orElseThrow();
  }

  @Test
  void hudisFilesPartitionListsWhatStorageHolds() throws IOException {
    Path t = golden(dir.resolve("t"));
    MetadataTableReader r = reader(t);
    assertEquals(List.of(""), r.partitions());
    assertEquals(List.of(new MetadataFile(FIRST_PARQUET, Files.size(t.resolve(FIRST_PARQUET))),
        new MetadataFile(SECOND_PARQUET, Files.size(t.resolve(SECOND_PARQUET)))), r.files(""));
    assertEquals("20261201203733578", r.latestInstant());
    assertEquals(List.of(".", "__all_partitions__"), List.copyOf(r.allFilesRecords().keySet()),
        "one partition-list record and one file-list record, in HFile key order");
    ListingCheck.Result check = ListingCheck.compare(r, storage, t.toString(), timeline(t));
    assertEquals(List.of(), check.differences());
    assertEquals(2, check.files());
    MetadataTables.Availability a = MetadataTables.check(storage, t.toString(), timeline(t),
        TableConfigStore.read(storage, t.toString()), true);
    assertTrue(a.available(), a.reason());
  }

  @Test
  void aBlockWhoseDataInstantIsNotCompletedIsNotTrustedUntilARollbackOfItCompletes() throws IOException {
    Path t = golden(dir.resolve("t"));
    // the crash window: the metadata deltacommit completed, the data commit did not
    Files.delete(t.resolve(".hoodie/20261201203733578.commit"));
    MetadataTableReader r = reader(t);
    assertEquals(List.of(FIRST_PARQUET), r.files("").stream().map(MetadataFile::name).toList());
    MetadataTables.Availability a = MetadataTables.check(storage, t.toString(), timeline(t),
        TableConfigStore.read(storage, t.toString()), true);
    assertTrue(a.available(), "a pending data instant needs no mirror: " + a.reason());

    // a completed data-table rollback makes its target valid again (Hudi 0.15's rule): the metadata table must roll
    // back its deltacommit too, or the rolled-back file shows up
    String rollback = "20261201203739999";
    TimelineStore store = new TimelineStore(storage, t.toString());
    RollbackMetadata md = RollbackMetadata.of(rollback, 1, new InstantInfo("20261201203733578", "commit"),
        List.of());
    store.createRequested(Instant.requested(rollback, Action.ROLLBACK), new byte[0]);
    Instant inflight = store.transitionToInflight(Instant.requested(rollback, Action.ROLLBACK), new byte[0]);
    store.complete(inflight, md.toAvroBytes());
    assertEquals(List.of(FIRST_PARQUET, SECOND_PARQUET), reader(t).files("").stream().map(MetadataFile::name).toList());
    MetadataTables.Availability after = MetadataTables.check(storage, t.toString(), timeline(t),
        TableConfigStore.read(storage, t.toString()), true);
    assertFalse(after.available(), "the rollback has no metadata deltacommit");
    assertTrue(after.reason().contains("rollback " + rollback), after.reason());
  }

  @Test
  void aDataCommitWithoutItsDeltacommitOrAConfigWithoutFilesMeansStorageListing() throws IOException {
    Path t = golden(dir.resolve("t"));
    Files.delete(t.resolve(".hoodie/metadata/.hoodie/20261201203733578.deltacommit"));
    MetadataTables.Availability a = MetadataTables.check(storage, t.toString(), timeline(t),
        TableConfigStore.read(storage, t.toString()), true);
    assertFalse(a.available());
    assertTrue(a.reason().contains("commit 20261201203733578 has no completed metadata deltacommit"), a.reason());
    assertEquals("storage", MetadataTables.view(storage, t.toString(), timeline(t),
        TableConfigStore.read(storage, t.toString()), true).listingSource());

    Path u = golden(dir.resolve("u"));
    assertEquals("metadata table", MetadataTables.view(storage, u.toString(), timeline(u),
        TableConfigStore.read(storage, u.toString()), true).listingSource());
    assertEquals("storage", MetadataTables.view(storage, u.toString(), timeline(u),
        TableConfigStore.read(storage, u.toString()), false).listingSource(), "hoodie.metadata.enable=false");
    TableConfigStore.update(storage, u.toString(), c -> c.with("hoodie.table.metadata.partitions", ""));
    assertEquals("storage", MetadataTables.view(storage, u.toString(), timeline(u),
        TableConfigStore.read(storage, u.toString()), true).listingSource(), "files not listed");
  }

  @Test
  void theViewFromTheMetadataTableEqualsTheViewFromStorage() {
    Path t = golden(dir.resolve("t"));
    Timeline tl = timeline(t);
    FileSystemView viaTable = MetadataTables.view(storage, t.toString(), tl, TableConfigStore.read(storage, t.toString()),
        true);
    FileSystemView viaStorage = FileSystemView.of(storage, t.toString(), tl, new StorageListing(storage, t.toString()));
    assertEquals(viaStorage.partitions(), viaTable.partitions());
    assertEquals(viaStorage.latestBaseFiles(""), viaTable.latestBaseFiles(""));
    assertEquals(viaStorage.asOf("20261201203732298").latestBaseFiles(""),
        viaTable.asOf("20261201203732298").latestBaseFiles(""));
  }

  // ---- record_index built here: three file groups, base HFiles and log blocks of several instants ----

  private static final int GROUPS = 3;

  private Path recordIndexTable() throws IOException {
    Path t = dir.resolve("ri");
    Path meta = t.resolve(".hoodie");
    Path mdt = t.resolve(".hoodie/metadata");
    Files.createDirectories(meta);
    Files.createDirectories(mdt.resolve(".hoodie"));
    for (String i : List.of(T1, T2)) {
      Files.write(meta.resolve(i + ".deltacommit"), new byte[0]);
    }
    Files.write(meta.resolve(T3 + ".deltacommit.inflight"), new byte[0]);
    for (String i : List.of(INIT, T1, T2, T3)) {
      Files.write(mdt.resolve(".hoodie/" + i + ".deltacommit.requested"), new byte[0]);
      Files.write(mdt.resolve(".hoodie/" + i + ".deltacommit"), new byte[0]);
    }
    Path part = mdt.resolve("record_index");
    Files.createDirectories(part);
    Map<Integer, Map<String, RecordLocation>> base = new TreeMap<>();
    for (int k = 0; k < 200; k++) {
      String key = "key-" + k;
      base.computeIfAbsent(MetadataPartition.fileGroupIndex(key, GROUPS), g -> new TreeMap<>())
          .put(key, location("p" + (k % 4), k));
    }
    // a key stored in a file group its hash does not pick: a lookup must not find it
    int wrong = (MetadataPartition.fileGroupIndex("stray", GROUPS) + 1) % GROUPS;
    base.get(wrong).put("stray", location("p0", 999));
    for (int g = 0; g < GROUPS; g++) {
      String fileId = MetadataPartition.RECORD_INDEX.fileId(g);
      writeBase(part.resolve(fileId + "_0-0-0_" + INIT + ".hfile"), base.get(g));
    }
    return t;
  }

  private static RecordLocation location(String partition, int n) {
    return new RecordLocation(partition, String.format("%08d-1111-2222-3333-444455556666-0", n), T1);
  }

  private void writeBase(Path file, Map<String, RecordLocation> entries) throws IOException {
    GenericDatumWriter<GenericRecord> w = new GenericDatumWriter<>(MetadataRecords.storedSchema());
    List<String> keys = new ArrayList<>(entries.keySet());
    keys.sort((a, b) -> java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    try (HFileWriter hw = HFileWriter.create(storage, file.toString(), HFileWriterOptions.defaults())) {
      hw.fileInfo("schema", MetadataRecords.storedSchema().toString().getBytes(StandardCharsets.UTF_8));
      for (String k : keys) {
        GenericRecord r = MetadataRecords.toAvro(k, entries.get(k));
        r.put(MetadataRecords.KEY, "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        w.write(r, enc);
        enc.flush();
        hw.append(k, out.toByteArray());
      }
    }
  }

  private void append(Path table, String key, List<LogBlock> blocks) {
    int g = MetadataPartition.fileGroupIndex(key, GROUPS);
    String partDir = table.resolve(".hoodie/metadata/record_index").toString();
    try (LogWriter w = LogWriter.open(storage, partDir, MetadataPartition.RECORD_INDEX.fileId(g), INIT, "0-0-0", 1 << 30)) {
      w.appendBlocks(blocks);
    }
  }

  private static DataBlock update(String instant, String key, RecordLocation loc) {
    return DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, instant), MetadataRecords.storedSchema(),
        List.of(MetadataRecords.toAvro(key, loc)), MetadataRecords.KEY);
  }

  @Test
  void recordIndexLookupsRouteKeysByHashAndApplyOnlyTrustedBlocksNewestLast() throws IOException {
    Path t = recordIndexTable();
    RecordLocation moved = new RecordLocation("p9", "99999999-1111-2222-3333-444455556666-0", T1);
    RecordLocation phantom = new RecordLocation("p8", "88888888-1111-2222-3333-444455556666-0", T3);
    append(t, "key-1", List.of(update(T1, "key-1", moved)));
    append(t, "key-2", List.of(DeleteBlock.of(T1, List.of(DeleteRecord.of("key-2", "record_index")))));
    // T3 is inflight on the data table: the block is not trusted although its metadata deltacommit completed
    append(t, "key-3", List.of(update(T3, "key-3", phantom)));
    // T2's block is rolled back by a command block of the metadata table
    append(t, "key-4", List.of(update(T2, "key-4", phantom), CommandBlock.rollback(T2 + "006", T2)));
    // a delete, then a newer insert of the same key: the insert wins
    append(t, "key-5", List.of(DeleteBlock.of(T1, List.of(DeleteRecord.of("key-5", "record_index")))));
    append(t, "key-5", List.of(update(T2, "key-5", moved)));
    // a key only in a log block
    append(t, "new-key", List.of(update(T2, "new-key", moved)));

    MetadataTableReader r = reader(t);
    assertEquals(GROUPS, r.fileSlices(MetadataPartition.RECORD_INDEX).size());
    Map<String, RecordLocation> found = r.recordLocations(List.of("key-0", "key-1", "key-2", "key-3", "key-4", "key-5",
        "key-199", "new-key", "stray", "absent"));
    assertEquals(location("p0", 0), found.get("key-0"));
    assertEquals(moved, found.get("key-1"), "the log update over the base");
    assertFalse(found.containsKey("key-2"), "deleted by a delete block");
    assertEquals(location("p3", 3), found.get("key-3"), "an uncommitted data instant's block is ignored");
    assertEquals(location("p0", 4), found.get("key-4"), "a rolled-back block is ignored");
    assertEquals(moved, found.get("key-5"), "an insert after a delete wins");
    assertEquals(location("p3", 199), found.get("key-199"));
    assertEquals(moved, found.get("new-key"));
    assertFalse(found.containsKey("stray"), "keys are looked up only in the file group their hash picks");
    assertFalse(found.containsKey("absent"));
    assertEquals(7, found.size());
    assertFalse(r.validInstants().contains(T3), "T3 is inflight on the data table");
    assertTrue(r.validInstants().containsAll(Set.of(INIT, T1, T2)), r.validInstants().toString());
  }

  @Test
  void theValidInstantSetFollowsHudisSuffixRules() {
    assertTrue(ValidInstants.isMetadataOwn(T1 + "001"));
    assertTrue(ValidInstants.isMetadataOwn(T1 + "006"));
    assertFalse(ValidInstants.isMetadataOwn(T1 + "007"), "007-009 are reserved, not valid");
    assertFalse(ValidInstants.isMetadataOwn(T1 + "000"));
    assertTrue(ValidInstants.isMetadataOwn(T1 + "010"));
    assertTrue(ValidInstants.isMetadataOwn(T1 + "013"));
    assertFalse(ValidInstants.isMetadataOwn(T1), "a 17-digit time is a data-table instant");
    Timeline data = Timeline.of(List.of(Instant.completed(T1, Action.DELTACOMMIT), Instant.inflight(T2, Action.DELTACOMMIT)));
    Timeline metadata = Timeline.of(List.of(Instant.completed(INIT, Action.DELTACOMMIT),
        Instant.completed(T1, Action.DELTACOMMIT), Instant.completed(T2, Action.DELTACOMMIT),
        Instant.completed(T1 + "002", Action.CLEAN), Instant.completed(T1 + "001", Action.COMMIT),
        Instant.completed(T1 + "007", Action.DELTACOMMIT), Instant.completed(T1 + "011", Action.DELTACOMMIT),
        Instant.completed(T1 + "006", Action.ROLLBACK)));
    Set<String> valid = ValidInstants.of(data, new TimelineStore(storage, dir.toString()), metadata);
    assertEquals(Set.of(T1, INIT, T1 + "011", T1 + "006"), valid,
        "data completed, init on an empty table, init suffix, metadata rollback; not T2 (pending), 007, the clean "
            + "and the compaction (not deltacommits)");
  }

}
