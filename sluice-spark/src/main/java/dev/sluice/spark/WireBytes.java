package dev.sluice.spark;

import dev.sluice.api.WireRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A prepared record (and the file tagging found for it) as one byte array, the form records take in Spark's
 * shuffles and persisted RDDs. Spark's serializer then moves plain byte arrays: no Java serialization of an object
 * per record (class descriptors, reflection), nothing Kryo cannot handle (it refuses Java records), and a
 * persisted partition is arrays whose size Spark counts without walking object graphs. Layout: the file index
 * ({@code -1}: none), the delete flag, the key's and the partition path's UTF-8 lengths and bytes, then the
 * record's own bytes to the end. Read only by this class; not a stable format.
 */
final class WireBytes {
  private static final int HEAD = Integer.BYTES + 1 + 2 * Integer.BYTES;

  private WireBytes() {
  }

  /** {@code w} with no file. */
  static byte[] of(WireRecord w) {
    return of(-1, w);
  }

  /** {@code w} tagged to {@code file}. */
  static byte[] of(int file, WireRecord w) {
    byte[] key = w.key().getBytes(StandardCharsets.UTF_8);
    byte[] path = w.partitionPath().getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(HEAD + key.length + path.length + w.bytes().length);
    b.putInt(file).put((byte) (w.delete() ? 1 : 0)).putInt(key.length).putInt(path.length)
        .put(key).put(path).put(w.bytes());
    return b.array();
  }

  /** The tagged record of {@code bytes}. */
  static SluiceSpark.Tagged tagged(byte[] bytes) {
    return new SluiceSpark.Tagged(file(bytes), record(bytes));
  }

  /** The file index of {@code bytes} ({@code -1}: none). */
  static int file(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getInt(0);
  }

  /** Whether the record of {@code bytes} is a delete. */
  static boolean delete(byte[] bytes) {
    return bytes[Integer.BYTES] != 0;
  }

  /** The record key of {@code bytes}. */
  static String key(byte[] bytes) {
    return new String(bytes, HEAD, ByteBuffer.wrap(bytes).getInt(Integer.BYTES + 1), StandardCharsets.UTF_8);
  }

  /** The partition path of {@code bytes}. */
  static String partitionPath(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    return new String(bytes, HEAD + b.getInt(Integer.BYTES + 1), b.getInt(2 * Integer.BYTES + 1),
        StandardCharsets.UTF_8);
  }

  /** The record of {@code bytes}. */
  static WireRecord record(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    boolean delete = b.get(Integer.BYTES) != 0;
    int keyLength = b.getInt(Integer.BYTES + 1);
    int pathLength = b.getInt(2 * Integer.BYTES + 1);
    String key = new String(bytes, HEAD, keyLength, StandardCharsets.UTF_8);
    String path = new String(bytes, HEAD + keyLength, pathLength, StandardCharsets.UTF_8);
    return new WireRecord(key, path, delete, Arrays.copyOfRange(bytes, HEAD + keyLength + pathLength, bytes.length));
  }
}
