package dev.sluice.internal.read.expr;

import dev.sluice.api.ExpressionParser;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionPruningTest {

  private static boolean keep(String where, Map<String, String> partition) {
    return ExpressionBinder.bind(ExpressionParser.parse(where), TestRows.SCHEMA).mightMatchPartition(partition);
  }

  private static Map<String, String> partition(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // expression | partition part | partition dt | kept
      "part = 'p1' and l > 5|p1|2024-01-01|true",
      "part = 'p1' and l > 5|p2|2024-01-01|false",
      "PART = 'p1'|p2|2024-01-01|false",
      "part in ('a', 'b') and dt >= '2024-01-02'|a|2024-01-01|false",
      "part in ('a', 'b') and dt >= '2024-01-02'|c|2024-01-03|false",
      "part in ('a', 'b') and dt >= '2024-01-02'|a|2024-01-03|true",
      "part = 'p1' or l > 5|p2|2024-01-01|true",
      "part = 'p1' or dt = '2024-01-01'|p2|2024-01-01|true",
      "part = 'p1' or dt = '2024-01-01'|p2|2024-01-02|false",
      "not (part = 'p1' or l > 5)|p1|2024-01-01|false",
      "not (part = 'p1' or l > 5)|p2|2024-01-01|true",
      "not (part = 'p1' and l > 5)|p1|2024-01-01|true",
      "part != 'p1'|p1|2024-01-01|false",
      "part > 'p10'|p9|2024-01-01|true",
      "part > 'p10'|p1|2024-01-01|false",
      "dt = 19725|x|2024-01-03|true",
      "dt = '2024-01-03'|x|2024/01/03|true",
      "l > 5|x|2024-01-01|true",
  })
  void prunesOnConjunctsOverPartitionColumns(String where, String part, String dt, boolean kept) {
    assertEquals(kept, keep(where, partition("part", part, "dt", dt)), where + " on part=" + part + "/dt=" + dt);
  }

  @Test
  void noPartitionColumnsKeepsEverything() {
    assertEquals(true, keep("part = 'p1'", Map.of()));
    assertEquals(true, keep("part = 'p1'", partition("region", "eu")));
  }

  @Test
  void nullPartitionValueFollowsNullSemantics() {
    Map<String, String> defaultPartition = partition("part", null);
    assertEquals(false, keep("part = 'x'", defaultPartition));
    assertEquals(false, keep("part != 'x'", defaultPartition));
    assertEquals(true, keep("part is null", defaultPartition));
    assertEquals(false, keep("part is not null", defaultPartition));
    assertEquals(true, keep("not (part = 'x')", defaultPartition));
    assertEquals(false, keep("part in ('x', null)", defaultPartition));
  }

  @Test
  void valuesConvertToTheColumnsType() {
    // Numeric order, not text order: "15" > "5" as numbers.
    assertEquals(true, keep("i > 10", partition("i", "15")));
    assertEquals(false, keep("i > 10", partition("i", "5")));
    assertEquals(true, keep("i > 10", partition("i", "abc")));
    assertEquals(false, keep("b = true", partition("b", "false")));
    assertEquals(false, keep("ts >= '2024-01-02'", partition("ts", "2024-01-01T10:00:00Z")));
    assertEquals(true, keep("ts >= '2024-01-02'", partition("ts", "2024-01-02 00:00:00")));
    assertEquals(false, keep("amount = 3", partition("amount", "3.01")));
    assertEquals(true, keep("amount = 3", partition("amount", "3.00")));
    assertEquals(false, keep("addr.city = 'Paris'", partition("addr.city", "Lyon")));
  }
}
