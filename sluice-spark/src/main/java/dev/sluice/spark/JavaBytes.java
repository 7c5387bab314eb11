package dev.sluice.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * A task's result (a file group's written files, a partition's counts, a compacted slice) as Java-serialized bytes,
 * so that it reaches the driver whatever serializer the user's session runs: Spark sends task results through
 * {@code spark.serializer}, and Kryo, the one Hudi's guides set, cannot make Java records (it fails on their final
 * fields). One object per task, so Java serialization's cost does not matter here.
 */
final class JavaBytes {
  private JavaBytes() {
  }

  static byte[] of(Serializable value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not serialize a task result " + value.getClass().getName(), e);
    }
    return bytes.toByteArray();
  }

  static <T> T read(byte[] bytes, Class<T> type) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return type.cast(in.readObject());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read a task result " + type.getName(), e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("Could not read a task result " + type.getName(), e);
    }
  }
}
