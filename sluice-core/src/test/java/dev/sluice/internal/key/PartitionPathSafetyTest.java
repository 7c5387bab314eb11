package dev.sluice.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** Partition values that would leave the table are refused, or escaped as Hudi escapes them with urlencode on. */
class PartitionPathSafetyTest {
  private static final Schema SCHEMA = SchemaBuilder.record("r").fields()
      .requiredString("id").optionalString("p").optionalString("q").endRecord();
  private static final String LONG = "x".repeat(256);
  /** Hostile values: each must be refused with urlencode off, whatever the layout. */
  private static final List<String> ALWAYS_BAD = List.of("..", "a\0b", LONG);

  private static GenericRecord rec(String p, String q) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", "k");
    r.put("p", p);
    r.put("q", q);
    return r;
  }

  private static KeyGenerator gen(List<String> fields, boolean hive, boolean urlEncode) {
    return KeyGenerator.of(SCHEMA, List.of("id"), fields, hive, urlEncode);
  }

  private static SluiceException refused(KeyGenerator g, GenericRecord r) {
    SluiceException e = assertThrows(SluiceException.class, () -> g.partitionPath(r), () -> "accepted " + r);
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    return e;
  }

  @Test
  void singlePlainFieldChecksEachLevel() {
    KeyGenerator g = gen(List.of("p"), false, false);
    for (String bad : List.of("..", ".", "../../x", "a/../../b", "/etc/x", "a//b", "a/", "a/./b", "a\0b", LONG,
        "ok/" + LONG)) {
      SluiceException e = refused(g, rec(bad, null));
      assertTrue(e.getMessage().contains("field 'p'"), e.getMessage());
    }
    // Hudi's multi-level convention stays: a single plain field may hold several levels
    assertEquals("2024/01/31", g.partitionPath(rec("2024/01/31", null)));
    assertEquals("a..b/c..", g.partitionPath(rec("a..b/c..", null)));
    // a level starting with '.' is a hidden folder that partition listing skips: its rows would never be read
    refused(g, rec("a/.hidden", null));
    refused(g, rec("..x", null));
    assertEquals("x".repeat(255), g.partitionPath(rec("x".repeat(255), null)));
    // null and empty go to Hudi's default partition, inside the table
    assertEquals(KeyGenerator.DEFAULT_PARTITION, g.partitionPath(rec("", null)));
    assertEquals(KeyGenerator.DEFAULT_PARTITION, g.partitionPath(rec(null, null)));
  }

  @Test
  void hiveStyleAndSeveralFieldsAreOneLevelEach() {
    for (KeyGenerator g : List.of(gen(List.of("p"), true, false), gen(List.of("p", "q"), false, false),
        gen(List.of("p", "q"), true, false))) {
      SluiceException e = refused(g, rec("2024/01", "x"));
      assertTrue(e.getMessage().contains("'/'"), e.getMessage());
      refused(g, rec("../../x", "ok"));
      refused(g, rec("a\0", "ok"));
      refused(g, rec(LONG, "ok"));
    }
    // hive style: "p=.." is an ordinary folder name
    assertEquals("p=..", gen(List.of("p"), true, false).partitionPath(rec("..", null)));
    assertEquals("x../y", gen(List.of("p", "q"), false, false).partitionPath(rec("x..", "y")));
    refused(gen(List.of("p", "q"), false, false), rec("..x", "y"));
    refused(gen(List.of("p", "q"), false, false), rec("ok", ".."));
    refused(gen(List.of("p", "q"), false, false), rec("ok", "../../x"));
    refused(gen(List.of("p", "q"), false, false), rec(".", "ok"));
  }

  @Test
  void urlEncodeEscapesWhatHudiEscapesAndStillRefusesDots() {
    KeyGenerator g = gen(List.of("p"), false, true);
    assertEquals("a%2F..%2F..%2Fb", g.partitionPath(rec("a/../../b", null)));
    assertEquals("%2Fetc%2Fx", g.partitionPath(rec("/etc/x", null)));
    assertEquals("a%00b", g.partitionPath(rec("a\0b", null)));
    // encoded, "../../x" is one level, but a hidden one (it starts with '.'): still refused
    refused(g, rec("../../x", null));
    assertEquals("p=..%2F..%2Fx", gen(List.of("p"), true, true).partitionPath(rec("../../x", null)));
    // the characters Hudi 0.15's PartitionPathEncodeUtils escapes (read from its behaviour), '*' among them
    assertEquals("%2A%22%23%25%27%3A%3D%3F%5C%7F%7B%5B%5D%5E%0A a.b-c_d~e", g.partitionPath(
        rec("*\"#%':=?\\\u007f{[]^\n a.b-c_d~e", null)));
    KeyGenerator hive = gen(List.of("p", "q"), true, true);
    assertEquals("p=a%3Db/q=c%2Fd", hive.partitionPath(rec("a=b", "c/d")));
    // Hudi leaves dots alone, so '.' and '..' would still escape: refused with encoding on too
    for (String bad : List.of("..", ".")) {
      refused(g, rec(bad, null));
    }
    // the limit applies to the encoded name: 85 slashes are 255 bytes encoded, 86 are 258
    assertEquals("%2F".repeat(85), g.partitionPath(rec("/".repeat(85), null)));
    refused(g, rec("/".repeat(86), null));
  }

  @Test
  void everyCharacterHudiEscapes() {
    StringBuilder escaped = new StringBuilder();
    for (char c = 0; c < 256; c++) {
      if (!PartitionPaths.escape(String.valueOf(c)).equals(String.valueOf(c))) {
        escaped.append((int) c).append(' ');
      }
    }
    StringBuilder expected = new StringBuilder();
    for (int c = 0; c < 32; c++) {
      expected.append(c).append(' ');
    }
    expected.append("34 35 37 39 42 47 58 61 63 91 92 93 94 123 127 ");
    assertEquals(expected.toString(), escaped.toString());
    assertEquals("%1F%7F", PartitionPaths.escape("\u001f\u007f"));
  }

  @Test
  void alwaysBadValuesAreRefusedInEveryLayout() {
    int tried = 0;
    for (boolean hive : new boolean[] {false, true}) {
      for (List<String> fields : List.of(List.of("p"), List.of("q", "p"))) {
        for (String bad : ALWAYS_BAD) {
          if (hive && bad.equals("..")) {
            continue;
          }
          refused(gen(fields, hive, false), rec(bad, "ok"));
          tried++;
        }
      }
    }
    assertEquals(10, tried);
  }
}
