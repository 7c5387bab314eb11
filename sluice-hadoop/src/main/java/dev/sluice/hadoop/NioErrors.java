package dev.sluice.hadoop;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;

/**
 * Hadoop reports "exists" and "missing" with its own exception types; the Storage contract (and the NIO
 * LocalStorage callers are written against) uses the java.nio.file ones. These keep the Hadoop one as cause.
 */
final class NioErrors {
  private NioErrors() {
  }

  static FileAlreadyExistsException alreadyExists(String path, Throwable cause) {
    FileAlreadyExistsException e = new FileAlreadyExistsException(path);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  static NoSuchFileException noSuchFile(String path, Throwable cause) {
    NoSuchFileException e = new NoSuchFileException(path);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }
}
