package dev.sluice.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Complex keys whose Hudi encoding another key shares are refused; no other key is. The rule is checked against a
 * brute force over every way to cut an encoded key into values.
 */
class ComplexKeyCollisionTest {
  private static final Schema SCHEMA = SchemaBuilder.record("r").fields()
      .optionalString("a").optionalString("b").optionalString("c").endRecord();

  private static GenericRecord rec(String... values) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    for (int i = 0; i < values.length; i++) {
      r.put(i, values[i]);
    }
    return r;
  }

  @Test
  void collidingKeysAreRefusedNamingTheField() {
    KeyGenerator g = KeyGenerator.of(SCHEMA, List.of("a", "b"), List.of(), false, false);
    // both encode as a:x,b:y,b:z: Hudi would see one key
    SluiceException e = assertThrows(SluiceException.class, () -> g.recordKey(rec("x,b:y", "z")));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("field 'a'"), e.getMessage());
    assertTrue(e.getMessage().contains("a=\"x\", b=\"y,b:z\""), e.getMessage());
    e = assertThrows(SluiceException.class, () -> g.recordKey(rec("x", "y,b:z")));
    assertTrue(e.getMessage().contains("field 'a'") || e.getMessage().contains("field 'b'"), e.getMessage());
    // a literal placeholder reads back as null
    e = assertThrows(SluiceException.class, () -> g.recordKey(rec("__null__", "z")));
    assertTrue(e.getMessage().contains("field 'a'") && e.getMessage().contains("a=null, b=\"z\""), e.getMessage());
    assertThrows(SluiceException.class, () -> g.recordKey(rec("x", "__empty__")));
  }

  @Test
  void harmlessCommasAndColonsAreKept() {
    KeyGenerator g = KeyGenerator.of(SCHEMA, List.of("a", "b"), List.of(), false, false);
    assertEquals("a:x,y:z,b:w", g.recordKey(rec("x,y:z", "w")));
    assertEquals("a:1:2,b:,,", g.recordKey(rec("1:2", ",,")));
    // ",a:" names the first field: no separator can stand there
    assertEquals("a:x,b:y,a:z", g.recordKey(rec("x", "y,a:z")));
    assertEquals("a:__null__,b:__null__x", g.recordKey(rec(null, "__null__x")));
    // three fields: ",c:" inside a's value cannot move c's separator before b's
    KeyGenerator three = KeyGenerator.of(SCHEMA, List.of("a", "b", "c"), List.of(), false, false);
    assertEquals("a:x,c:y,b:m,c:n", three.recordKey(rec("x,c:y", "m", "n")));
    // a single-field key is used as it is
    KeyGenerator single = KeyGenerator.of(SCHEMA, List.of("a"), List.of(), false, false);
    assertEquals("x,b:y", single.recordKey(rec("x,b:y")));
  }

  /** Every tuple over a small alphabet: refused exactly when a brute-force decode finds another tuple. */
  @Test
  void refusedExactlyWhenAnotherTupleEncodesAlike() {
    List<String> values = new ArrayList<>(Arrays.asList(null, "", "__null__", "__empty__"));
    String alphabet = ",:bc";
    for (int len = 1; len <= 2; len++) {
      addStrings(values, alphabet, "", len);
    }
    values.add(",b:");
    values.add(",c:");
    values.add("x,c:y,b:");
    List<String> names = List.of("a", "b", "c");
    KeyGenerator g = KeyGenerator.of(SCHEMA, names, List.of(), false, false);
    int refused = 0;
    int tried = 0;
    for (String x : values) {
      for (String y : values) {
        for (String z : values) {
          String[] t = {x, y, z};
          if (Arrays.stream(t).allMatch(v -> v == null || v.isEmpty())) {
            continue;
          }
          tried++;
          String encoded = "a:" + ComplexKeys.encode(x) + ",b:" + ComplexKeys.encode(y) + ",c:" + ComplexKeys.encode(z);
          boolean collides = bruteForceCollides(encoded, t);
          boolean wasRefused;
          try {
            assertEquals(encoded, g.recordKey(rec(x, y, z)));
            wasRefused = false;
          } catch (SluiceException e) {
            wasRefused = true;
            refused++;
          }
          assertEquals(collides, wasRefused, () -> "tuple " + Arrays.toString(t) + " encoded " + encoded);
        }
      }
    }
    assertTrue(refused > 1000 && tried - refused > 1000, refused + " of " + tried);
  }

  private static void addStrings(List<String> out, String alphabet, String prefix, int len) {
    if (len == 0) {
      out.add(prefix);
      return;
    }
    for (char c : alphabet.toCharArray()) {
      addStrings(out, alphabet, prefix + c, len - 1);
    }
  }

  /** Cuts {@code encoded} at every pair of positions; a different tuple that encodes back alike is a collision. */
  private static boolean bruteForceCollides(String encoded, String[] t) {
    for (int i = 0; i <= encoded.length(); i++) {
      for (int j = i; j <= encoded.length(); j++) {
        String p1 = encoded.substring(0, i);
        String p2 = encoded.substring(i, j);
        String p3 = encoded.substring(j);
        if (!p1.startsWith("a:") || !p2.startsWith(",b:") || !p3.startsWith(",c:")) {
          continue;
        }
        String[] u = {decode(p1.substring(2)), decode(p2.substring(3)), decode(p3.substring(3))};
        boolean pieceEmpty = p1.length() == 2 || p2.length() == 3 || p3.length() == 3;
        boolean allMissing = Arrays.stream(u).allMatch(v -> v == null || v.isEmpty());
        if (!pieceEmpty && !allMissing && !Arrays.equals(u, t)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String decode(String piece) {
    return piece.equals("__null__") ? null : piece.equals("__empty__") ? "" : piece;
  }
}
