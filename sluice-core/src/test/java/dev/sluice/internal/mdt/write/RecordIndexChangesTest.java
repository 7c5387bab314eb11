package dev.sluice.internal.mdt.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.mdt.MetadataPartition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record index's change collector: netting per key, shard then HFile key order, spilling past its budget. */
class RecordIndexChangesTest {
  @TempDir
  Path spill;

  private static List<RecordIndexChanges.Change> drain(RecordIndexChanges changes) {
    List<RecordIndexChanges.Change> out = new ArrayList<>();
    try (CloseableIterator<RecordIndexChanges.Change> it = changes.changes()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  @Test
  void aMovedKeyKeepsItsInsertAndChangesComeByShardInHFileOrder() {
    // U+FFFD sorts before a surrogate pair in String order but after it in UTF-8 byte order (the HFile's)
    String high = "k\uFFFD";
    String pair = "k\uD83D\uDE00";
    try (RecordIndexChanges c = RecordIndexChanges.collecting(4, 1 << 20, spill)) {
      c.insert("moved", "p2", "f2");
      c.delete("moved", "p1");
      c.delete("gone", "p1");
      c.insert(high, "p0", "f0");
      c.insert(pair, "p0", "f0");
      for (int i = 0; i < 40; i++) {
        c.insert("key-" + i, "p1", "f1");
      }
      List<RecordIndexChanges.Change> out = drain(c);
      assertEquals(44, out.size(), "one change per key");
      RecordIndexChanges.Change moved = out.stream().filter(x -> x.key().equals("moved")).findFirst().orElseThrow();
      assertFalse(moved.isDelete());
      assertEquals("p2", moved.partition());
      assertTrue(out.stream().filter(x -> x.key().equals("gone")).findFirst().orElseThrow().isDelete());
      for (int i = 1; i < out.size(); i++) {
        RecordIndexChanges.Change a = out.get(i - 1);
        RecordIndexChanges.Change b = out.get(i);
        assertEquals(MetadataPartition.fileGroupIndex(b.key(), 4), b.shard());
        assertTrue(a.shard() < b.shard() || a.shard() == b.shard() && Arrays.compareUnsigned(
            a.key().getBytes(StandardCharsets.UTF_8), b.key().getBytes(StandardCharsets.UTF_8)) < 0,
            a.key() + " before " + b.key());
      }
    }
  }

  @Test
  void spillsPastItsBudgetAndGivesTheSameChanges() throws IOException {
    List<RecordIndexChanges.Change> inMemory;
    try (RecordIndexChanges c = RecordIndexChanges.collecting(10, 1 << 24, spill.resolve("a"))) {
      fill(c);
      inMemory = drain(c);
    }
    try (RecordIndexChanges c = RecordIndexChanges.collecting(10, 4096, spill.resolve("b"))) {
      fill(c);
      try (Stream<Path> runs = Files.list(spill.resolve("b"))) {
        assertTrue(runs.count() > 1, "sorted runs on disk");
      }
      assertEquals(inMemory, drain(c));
    }
    assertEquals(2000, inMemory.size());
    try (RecordIndexChanges c = RecordIndexChanges.collecting(10, 4096, spill.resolve("c"))) {
      fill(c);
      try (RecordIndexChanges three = c.resharded(3)) {
        List<RecordIndexChanges.Change> out = drain(three);
        assertEquals(2000, out.size());
        assertTrue(out.stream().allMatch(x -> x.shard() == MetadataPartition.fileGroupIndex(x.key(), 3)));
      }
    }
  }

  @Test
  void reroutedForAPartitionedIndexKeepsAMovedKeysDeleteInItsOldPartition() {
    try (RecordIndexChanges c = RecordIndexChanges.collecting(4, 1 << 20, spill)) {
      c.insert("moved", "p2", "f2");
      c.delete("moved", "p1");
      c.delete("gone", "p3");
      c.insert("new", "p1", "f1");
      // file groups: p1 -> 0, p2 -> 1; p3 has none, so its delete is left out
      try (RecordIndexChanges r = c.rerouted(2, x -> switch (x.partition()) {
        case "p1" -> 0;
        case "p2" -> 1;
        default -> -1;
      })) {
        List<RecordIndexChanges.Change> out = drain(r);
        assertEquals(List.of("0 moved p1 delete", "0 new p1 f1", "1 moved p2 f2"), out.stream().map(x -> x.shard() + " "
            + x.key() + " " + x.partition() + " " + (x.isDelete() ? "delete" : x.fileId())).toList());
      }
    }
  }

  private static void fill(RecordIndexChanges c) {
    for (int i = 0; i < 2000; i++) {
      if (i % 7 == 0) {
        c.delete("key-" + i, "p" + (i % 3));
      } else {
        c.insert("key-" + i, "p" + (i % 3), "file-" + (i % 5));
      }
    }
  }
}
