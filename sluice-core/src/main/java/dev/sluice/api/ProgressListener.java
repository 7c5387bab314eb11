package dev.sluice.api;

/**
 * Receives the {@link Progress} of the long steps of an operation: a write's input read, tagging and file group
 * writes ({@link Table#write(WriteOperation, java.util.Iterator, ProgressListener)}), a compaction
 * ({@link TableCompaction#run(String, ProgressListener)}), a clean ({@link Table#clean(ProgressListener)}) and a query
 * ({@link Scan#onProgress(ProgressListener)}).
 *
 * <p>Each step reports when it starts (0 done), then at most every few thousand records or when a tenth of a second
 * has passed since its last report (whichever comes later), and once when it ends. Reports come from the threads doing
 * the work, one at a time: the listener needs no locking of its own, but should return quickly (it holds the step's
 * workers up). Without a listener ({@link #NONE}) nothing is counted beyond a field check.
 */
@FunctionalInterface
public interface ProgressListener {
  /** The listener that ignores every report (the default). */
  ProgressListener NONE = p -> { };

  /** Called with each report, in order per step. */
  void onProgress(Progress progress);
}
