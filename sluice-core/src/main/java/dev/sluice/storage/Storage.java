package dev.sluice.storage;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The file operations Sluice needs from a file system or object store. Paths are absolute strings in the
 * storage's own form (a local path, or a URI such as {@code hdfs://nn/t/x}); use {@link StoragePaths} to join
 * them. Implementations: {@link LocalStorage} (NIO, the embedded default) and the Hadoop one in
 * {@code sluice-hadoop}. Implementations must be thread-safe.
 */
public interface Storage {
  /** The URI scheme this storage serves, e.g. {@code file} or {@code hdfs}. */
  String scheme();

  /** Status of a file or directory, or empty if nothing is at {@code path}. */
  Optional<FileInfo> info(String path) throws IOException;

  /** The entries directly under {@code dir}; an empty list if the directory does not exist. */
  List<FileInfo> list(String dir) throws IOException;

  /** Opens a file for random-access reading. */
  SeekableInput openRead(String path) throws IOException;

  /**
   * Creates a new file at its final name and returns a stream to write it; parent directories are created.
   * Fails if the file exists and {@code overwrite} is false. Data is durable once the stream is closed.
   */
  PositionOutputStream create(String path, boolean overwrite) throws IOException;

  /**
   * Writes a whole small file so that it appears in one step with all its content, failing with
   * {@link java.nio.file.FileAlreadyExistsException} if it exists. This is the publish step of the timeline.
   */
  void createExclusive(String path, byte[] content) throws IOException;

  /** True if {@link #append(String)} may safely add to an existing file (HDFS); false on local disk and object stores. */
  default boolean supportsAppend() {
    return false;
  }

  /**
   * Opens an existing file for appending; only when {@link #supportsAppend()}. Throws
   * {@link AppendRefusedException} when this file cannot be appended to now (e.g. another client holds it).
   */
  default PositionOutputStream append(String path) throws IOException {
    throw new IOException("append is not supported by " + scheme() + " storage: " + path);
  }

  /** Deletes a file or an empty directory; false if nothing was there. */
  boolean delete(String path) throws IOException;

  /** Deletes a directory and everything below it; false if nothing was there. */
  boolean deleteRecursively(String path) throws IOException;

  /** Creates a directory and its parents; succeeds if it exists. */
  void mkdirs(String dir) throws IOException;

  /** Renames a file; fails if the target exists. Not atomic on object stores: use only for local temp files. */
  void rename(String from, String to) throws IOException;

  /**
   * Moves the file {@code from} onto {@code to}, replacing it (repair swaps a rewritten file in this way). The default
   * deletes {@code to} and then renames, so a crash in between leaves {@code to} missing and {@code from} in place
   * (repair finishes the move when run again); storages that can replace in one step override it.
   */
  default void replace(String from, String to) throws IOException {
    delete(to);
    rename(from, to);
  }
}
