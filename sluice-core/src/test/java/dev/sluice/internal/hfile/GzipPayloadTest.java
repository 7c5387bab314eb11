package dev.sluice.internal.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

/** The reused-inflater gzip reader against the JDK's gzip writer, including the header fields and damage it must refuse. */
class GzipPayloadTest {

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }

  private static byte[] data(int n, long seed) {
    byte[] b = new byte[n];
    Random r = new Random(seed);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ('a' + r.nextInt(6));
    }
    return b;
  }

  @Test
  void inflatesOneMemberAtAnOffsetAndAgainOnTheSameThread() throws IOException {
    for (int round = 0; round < 3; round++) {
      byte[] plain = data(70_000 + round, round);
      byte[] gz = gzip(plain);
      byte[] framed = new byte[gz.length + 33];
      System.arraycopy(gz, 0, framed, 33, gz.length);
      byte[] out = new byte[plain.length];
      assertEquals(plain.length, GzipPayload.inflate(framed, 33, gz.length, out));
      assertArrayEquals(plain, out);
    }
  }

  @Test
  void readsConcatenatedMembersAndHeaderNameAndComment() throws IOException {
    byte[] a = data(1000, 1);
    byte[] b = data(2000, 2);
    byte[] first = gzip(a);
    // the same member with FNAME and FCOMMENT set and their zero-terminated fields after the 10-byte header
    ByteArrayOutputStream named = new ByteArrayOutputStream();
    named.write(first, 0, 3);
    named.write(8 | 16);
    named.write(first, 4, 6);
    named.write("block.bin\0".getBytes(StandardCharsets.ISO_8859_1));
    named.write("made by a test\0".getBytes(StandardCharsets.ISO_8859_1));
    named.write(first, 10, first.length - 10);
    named.write(gzip(b));
    byte[] src = named.toByteArray();
    byte[] out = new byte[a.length + b.length];
    assertEquals(out.length, GzipPayload.inflate(src, 0, src.length, out));
    assertArrayEquals(a, Arrays.copyOfRange(out, 0, a.length));
    assertArrayEquals(b, Arrays.copyOfRange(out, a.length, out.length));
  }

  @Test
  void refusesWrongChecksumCutStreamsAndMoreBytesThanExpected() throws IOException {
    byte[] plain = data(5000, 3);
    byte[] gz = gzip(plain);
    byte[] badCrc = gz.clone();
    badCrc[gz.length - 8] ^= 1;
    assertTrue(assertThrows(ZipException.class, () -> GzipPayload.inflate(badCrc, 0, badCrc.length, new byte[plain.length]))
        .getMessage().contains("CRC-32"));
    assertThrows(ZipException.class, () -> GzipPayload.inflate(gz, 0, gz.length / 2, new byte[plain.length]));
    assertTrue(assertThrows(ZipException.class, () -> GzipPayload.inflate(gz, 0, gz.length, new byte[plain.length - 1]))
        .getMessage().contains("more than"));
    byte[] notGzip = plain.clone();
    assertTrue(assertThrows(ZipException.class, () -> GzipPayload.inflate(notGzip, 0, 100, new byte[10]))
        .getMessage().contains("not in gzip format"));
  }
}
