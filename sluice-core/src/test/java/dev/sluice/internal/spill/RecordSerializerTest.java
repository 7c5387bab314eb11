package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class RecordSerializerTest {
  record Logged(String instant, long ordering, GenericRecord row, String op) {
  }

  static final Schema INNER = SchemaBuilder.record("Inner").fields()
      .requiredInt("i").optionalString("s").endRecord();
  static final Schema ROW = SchemaBuilder.record("Row").namespace("t").fields()
      .requiredString("_hoodie_record_key")
      .requiredLong("ts")
      .optionalString("name")
      .name("score").type().doubleType().doubleDefault(0)
      .name("flag").type().booleanType().booleanDefault(false)
      .name("blob").type().bytesType().noDefault()
      .name("fix").type().fixed("F4").size(4).noDefault()
      .name("color").type().enumeration("Color").symbols("RED", "GREEN").enumDefault("RED")
      .name("tags").type().array().items().stringType().noDefault()
      .name("attrs").type().map().values().longType().noDefault()
      .name("inner").type().optional().type(INNER)
      .name("either").type().unionOf().intType().and().stringType().endUnion().noDefault()
      .endRecord();

  static GenericRecord row(int i, Random r) {
    char[] name = new char[r.nextInt(60)];
    Arrays.fill(name, (char) ('a' + i % 26));
    return new GenericRecordBuilder(ROW)
        .set("_hoodie_record_key", "key-" + i)
        .set("ts", r.nextLong())
        .set("name", i % 3 == 0 ? null : new String(name) + "ü")
        .set("score", r.nextDouble())
        .set("flag", r.nextBoolean())
        .set("blob", ByteBuffer.wrap(new byte[] {(byte) i, 2, 3}))
        .set("fix", new GenericData.Fixed(ROW.getField("fix").schema(), new byte[] {1, 2, 3, (byte) i}))
        .set("color", new GenericData.EnumSymbol(ROW.getField("color").schema(), i % 2 == 0 ? "RED" : "GREEN"))
        .set("tags", List.of("a" + i, "b"))
        .set("attrs", Map.of("x", (long) i))
        .set("inner", i % 4 == 0 ? null : new GenericRecordBuilder(INNER).set("i", i).set("s", "in" + i).build())
        .set("either", i % 2 == 0 ? (Object) i : "s" + i)
        .build();
  }

  /** Writes through both our sink and a plain DataOutputStream; both must give the same bytes. */
  static <V> byte[] writeBothWays(RecordSerializer<V> s, V value) throws IOException {
    ByteSink sink = new ByteSink(8);
    s.write(value, sink);
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    s.write(value, new DataOutputStream(bos));
    byte[] viaSink = Arrays.copyOf(sink.array(), sink.size());
    assertArrayEquals(bos.toByteArray(), viaSink, "sink fast path and DataOutputStream agree");
    return viaSink;
  }

  /** Reads back through both our source and a plain DataInputStream, checking all bytes are consumed. */
  static <V> void assertReadsBack(RecordSerializer<V> s, byte[] bytes, V expected) throws IOException {
    ByteSource src = new ByteSource().reset(bytes, 0, bytes.length);
    assertEquals(expected, s.read(src));
    assertEquals(0, src.remaining());
    ByteArrayInputStream bis = new ByteArrayInputStream(bytes);
    assertEquals(expected, s.read(new DataInputStream(bis)));
    assertEquals(0, bis.available());
  }

  @Test
  void avroRecordsRoundTripEveryTypeThroughBothPaths() throws IOException {
    AvroRecordSerializer s = new AvroRecordSerializer(ROW);
    Random r = new Random(7);
    for (int i = 0; i < 50; i++) {
      GenericRecord rec = row(i, r);
      byte[] bytes = writeBothWays(s, rec);
      GenericRecord back = s.read(new ByteSource().reset(bytes, 0, bytes.length));
      // Generic records compare by value across String/Utf8 and List/GenericData.Array.
      assertEquals(rec, back);
      assertEquals(rec.toString(), back.toString());
      assertTrue(back.get("_hoodie_record_key") instanceof Utf8);
    }
  }

  @Test
  void compositeOfStringsLongsAndANullableRecord() throws IOException {
    RecordSerializer<Logged> s = RecordSerializer.of(
        RecordSerializer.field(Logged::instant, RecordSerializer.string()),
        RecordSerializer.field(Logged::ordering, RecordSerializer.int64()),
        RecordSerializer.field(Logged::row, new AvroRecordSerializer(ROW).nullable()),
        RecordSerializer.field(Logged::op, RecordSerializer.string().nullable()),
        Logged::new);
    Random r = new Random(3);
    for (int i = 0; i < 20; i++) {
      GenericRecord rec = i % 5 == 0 ? null : row(i, r);
      Logged v = new Logged("2024010112000" + i, Long.MIN_VALUE + i, rec, i % 2 == 0 ? null : "U");
      byte[] bytes = writeBothWays(s, v);
      Logged back = s.read(new ByteSource().reset(bytes, 0, bytes.length));
      assertEquals(v.instant(), back.instant());
      assertEquals(v.ordering(), back.ordering());
      assertEquals(v.op(), back.op());
      if (rec == null) {
        assertNull(back.row());
      } else {
        assertEquals(rec, back.row());
      }
      assertTrue(s.estimateSize(v) > (rec == null ? 0 : 100));
    }
  }

  @Property(tries = 200, seed = "20261203")
  void stringsLongsBytesAndNullablesRoundTrip(@ForAll String text, @ForAll long n, @ForAll byte[] bytes)
      throws IOException {
    record Trio(String text, Long n, byte[] bytes) {
    }
    RecordSerializer<Trio> s = RecordSerializer.of(
        RecordSerializer.field(Trio::text, RecordSerializer.string().nullable()),
        RecordSerializer.field(Trio::n, RecordSerializer.int64()),
        RecordSerializer.field(Trio::bytes, RecordSerializer.bytes()),
        Trio::new);
    // Arbitrary Java strings may hold unpaired surrogates, which UTF-8 cannot carry; compare their encoding.
    String expectedText = new String(text.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        java.nio.charset.StandardCharsets.UTF_8);
    byte[] written = writeBothWays(s, new Trio(text, n, bytes));
    for (Trio back : List.of(s.read(new ByteSource().reset(written, 0, written.length)),
        s.read(new DataInputStream(new ByteArrayInputStream(written))))) {
      assertEquals(expectedText, back.text());
      assertEquals(n, back.n());
      assertArrayEquals(bytes, back.bytes());
    }
    byte[] nulls = writeBothWays(s, new Trio(null, n, bytes));
    assertNull(s.read(new ByteSource().reset(nulls, 0, nulls.length)).text());
  }

  @Test
  void mappedSerializerConvertsBothWays() throws IOException {
    RecordSerializer<Integer> ints = RecordSerializer.int64().map(Integer::longValue, Long::intValue);
    assertReadsBack(ints, writeBothWays(ints, -42), -42);
    RecordSerializer<String> s = RecordSerializer.string();
    assertReadsBack(s, writeBothWays(s, "héllo €"), "héllo €");
    assertReadsBack(s.nullable(), writeBothWays(s.nullable(), null), null);
  }

  @Test
  void sinkWritesWhatDataOutputStreamWrites() throws IOException {
    ByteSink sink = new ByteSink(1);
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    DataOutputStream dos = new DataOutputStream(bos);
    for (java.io.DataOutput out : List.<java.io.DataOutput>of(sink, dos)) {
      out.writeBoolean(true);
      out.writeByte(-3);
      out.writeShort(-30000);
      out.writeChar('€');
      out.writeInt(Integer.MIN_VALUE + 5);
      out.writeLong(-123456789012345L);
      out.writeFloat(1.5f);
      out.writeDouble(-2.25);
      out.writeBytes("latin");
      out.writeChars("ch€");
      out.writeUTF("modified \u0000 utf € \uD83D\uDE00");
    }
    assertArrayEquals(bos.toByteArray(), Arrays.copyOf(sink.array(), sink.size()));
    ByteSource in = new ByteSource().reset(sink.array(), 0, sink.size());
    assertTrue(in.readBoolean());
    assertEquals(-3, in.readByte());
    assertEquals(-30000, in.readShort());
    assertEquals('€', in.readChar());
    assertEquals(Integer.MIN_VALUE + 5, in.readInt());
    assertEquals(-123456789012345L, in.readLong());
    assertEquals(1.5f, in.readFloat());
    assertEquals(-2.25, in.readDouble());
    byte[] latin = new byte[5];
    in.readFully(latin);
    assertEquals("latin", new String(latin, java.nio.charset.StandardCharsets.ISO_8859_1));
    assertEquals('c', in.readChar());
    assertEquals('h', in.readChar());
    assertEquals('€', in.readChar());
    assertEquals("modified \u0000 utf € \uD83D\uDE00", in.readUTF());
    assertEquals(0, in.remaining());
  }

  @Test
  void sampledAvroEstimateTracksTheWalkedHeapSize() {
    AvroRecordSerializer s = new AvroRecordSerializer(ROW);
    Random r = new Random(11);
    long estimated = 0;
    long walked = 0;
    for (int i = 0; i < 5000; i++) {
      GenericRecord rec = row(i, r);
      estimated += s.estimateSize(rec);
      walked += AvroHeapSize.of(ROW, rec);
    }
    double ratio = (double) estimated / walked;
    assertTrue(ratio > 0.9 && ratio < 1.1, "sampled/walked = " + ratio);
    // A record with a longer string takes more heap, by at least the string's bytes.
    GenericRecord small = row(1, new Random(1));
    GenericRecord big = new GenericRecordBuilder((GenericData.Record) small).set("name", "x".repeat(1000)).build();
    assertTrue(AvroHeapSize.of(ROW, big) - AvroHeapSize.of(ROW, small) >= 900);
  }
}
