package dev.sluice.storage;

import java.io.IOException;

/**
 * Thrown by {@link Storage#append(String)} when the store can append in general but refuses this file now: on
 * HDFS the file is still leased to another client (often one that died mid-append; the lease outlives it until
 * the NameNode recovers it) or its lease recovery is under way, or the mount it lives on cannot append. Writers
 * that may choose another file (Merge-on-Read log writers) start a new one instead, as Hudi's log writer does.
 */
public final class AppendRefusedException extends IOException {
  private static final long serialVersionUID = 1L;

  /** An append to {@code path} refused for {@code reason}; {@code cause} is the store's own error. */
  public AppendRefusedException(String path, String reason, Throwable cause) {
    super("append to " + path + " refused: " + reason, cause);
  }
}
