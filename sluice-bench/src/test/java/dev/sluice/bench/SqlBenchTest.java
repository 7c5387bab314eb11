package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How the SQL workload compares two engines' results (the same JSON both workers print). */
class SqlBenchTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String s) throws java.io.IOException {
    return JSON.readTree(s);
  }

  @Test
  void countsAndIntegerSumsMustBeEqualAndDoubleSumsClose() throws java.io.IOException {
    // DuckDB's sum of integers arrives as a big number, Spark's as a long: the same value
    JsonNode sluice = json("[[\"p0\", 3, 123456789012345678901, 10.1], [\"p1\", 2, 5, 0.30000000000000004]]");
    JsonNode spark = json("[[\"p0\", 3, 123456789012345678901, 10.1], [\"p1\", 2, 5, 0.3]]");
    assertEquals(Optional.empty(), SqlBench.difference(sluice, spark));
    assertEquals(new BigDecimal(5), SqlBench.count(sluice));

    assertTrue(SqlBench.difference(sluice, json("[[\"p0\", 3, 123456789012345678901, 10.1]]")).isPresent());
    assertTrue(SqlBench.difference(sluice, json("[[\"p0\", 4, 123456789012345678901, 10.1], [\"p1\", 2, 5, 0.3]]"))
        .orElseThrow().contains("column 2"));
    assertTrue(SqlBench.difference(sluice, json("[[\"p0\", 3, 123456789012345678900, 10.1], [\"p1\", 2, 5, 0.3]]"))
        .isPresent());
    assertTrue(SqlBench.difference(sluice, json("[[\"p0\", 3, 123456789012345678901, 10.1], [\"p1\", 2, 5, 0.31]]"))
        .isPresent());
    assertTrue(SqlBench.difference(sluice, json("[[\"p9\", 3, 123456789012345678901, 10.1], [\"p1\", 2, 5, 0.3]]"))
        .isPresent());
  }
}
