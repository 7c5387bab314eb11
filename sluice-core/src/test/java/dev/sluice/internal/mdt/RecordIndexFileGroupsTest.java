package dev.sluice.internal.mdt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecordIndexFileGroupsTest {

  @Test
  void aPartitionIsEscapedSoTheIdHasFourDashesAndReadsBack() {
    assertEquals("record-index-p1-0000-0", RecordIndexFileGroups.fileId("p1", 0));
    // '/', '-', '_', '%' and '=' escaped as Hudi escapes file names (upper-case hex)
    assertEquals("record-index-2024%2F01%2D31%5Fx%25y-0012-0", RecordIndexFileGroups.fileId("2024/01-31_x%y", 12));
    assertEquals("record-index-city%3Da b-0001-0", RecordIndexFileGroups.fileId("city=a b", 1));
    for (String p : List.of("p1", "2024/01-31_x%y", "city=a b", "", "a\u0001b", "日本-東京")) {
      String id = RecordIndexFileGroups.fileId(p, 3);
      assertTrue(RecordIndexFileGroups.isPartitioned(id), id);
      assertEquals(p, RecordIndexFileGroups.dataPartitionOf(id), id);
    }
    assertFalse(RecordIndexFileGroups.isPartitioned(MetadataPartition.RECORD_INDEX.fileId(3)));
  }
}
