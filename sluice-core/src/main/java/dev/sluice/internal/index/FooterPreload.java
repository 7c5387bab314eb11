package dev.sluice.internal.index;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reads the footers (key range, bloom filter) of a table's latest base files on a thread of its own while the
 * write's input is still being read: they do not depend on the input, and a cold process spends most of its input
 * read on the parsing thread with the other core idle, where the key lookups later waited for these footers
 * (a third of a cold 100k-record Merge-on-Read upsert's tagging, docs/benchmarks.md, 6 December 2026).
 *
 * <p>Only a table listed through its metadata table is preloaded: there the partitions and every partition's files
 * are one read of the metadata table's {@code files} partition, which the write then uses as its own listing
 * ({@link #listedView}); listing storage is a call per partition, most of them for nothing.
 *
 * <p>{@link Indexes#of(Storage, IndexedTable, IndexSettings, FooterPreload)} stops the preload after the file it is
 * reading and takes the footers read so far; the lookups read any others themselves.
 * A footer is used only for a file of the same path and size: base files are never rewritten in place.
 *
 * <p>A file whose footer cannot be read here is left out, not reported: the lookup that needs it reads it again and
 * reports that failure with its own message; a file no lookup needs must not fail the write (the lookups read only
 * the files of the input's partitions). The preload holds at most {@code maxBytes} of footer metadata (the
 * key-value strings, which hold the bloom filters), so a table of many partitions does not fill the heap with
 * footers of files no key is looked up in.
 */
public final class FooterPreload implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(FooterPreload.class.getName());
  /** No preload: {@link #stop} hands over nothing. */
  public static final FooterPreload NONE = new FooterPreload();

  /** A footer read by the preload and the length of the file it was read from. */
  record Preloaded(long size, BaseFileReader reader) {
  }

  private final Map<String, Preloaded> footers = new ConcurrentHashMap<>();
  private final CompletableFuture<Optional<FileSystemView>> listed = new CompletableFuture<>();
  private final Thread thread;
  private volatile boolean stopped;

  private FooterPreload() {
    this.thread = null;
  }

  private FooterPreload(Storage storage, Supplier<FileSystemView> view, boolean blooms, long maxBytes) {
    this.thread = new Thread(() -> run(storage, view, blooms, maxBytes), "sluice-footer-preload");
    thread.setDaemon(true);
  }

  /**
   * Starts reading the footers of the latest base files of every partition of {@code view} (built on the preload's
   * thread) if {@code settings} names an index that reads footers (every index but the record index); else
   * {@link #NONE}.
   *
   * @param maxBytes the most footer metadata to hold, in bytes
   */
  public static FooterPreload start(Storage storage, Supplier<FileSystemView> view, IndexSettings settings,
      long maxBytes) {
    if (settings.type().equals(Indexes.RECORD_INDEX)) {
      return NONE;
    }
    FooterPreload p = new FooterPreload(storage, view, settings.type().endsWith("BLOOM"), maxBytes);
    p.thread.start();
    return p;
  }

  private void run(Storage storage, Supplier<FileSystemView> views, boolean blooms, long maxBytes) {
    List<BaseFile> files = new ArrayList<>();
    try {
      FileSystemView view = views.get();
      if (!view.listsAllInOneRequest()) {
        // listing storage is a call per partition, and a non-global lookup lists only the input's partitions: the
        // preload would list the others for nothing, so it reads nothing
        listed.complete(Optional.empty());
        return;
      }
      // the partition list and every partition's files in one read (of the metadata table's files partition)
      view.prefetchAll();
      List<String> partitions = view.partitions();
      for (String partition : partitions) {
        files.addAll(view.latestBaseFiles(partition));
      }
      listed.complete(Optional.of(view));
    } catch (RuntimeException e) {
      // not rethrown (see the class comment): the write lists the table itself and reports a failure to list
      LOG.log(System.Logger.Level.DEBUG, () -> "footer preload could not list the table: " + e.getMessage());
      listed.complete(Optional.empty());
      return;
    }
    long held = 0;
    for (BaseFile f : files) {
      if (stopped || held > maxBytes) {
        return;
      }
      held += preload(storage, f, blooms);
    }
  }

  /**
   * The view the preload listed the table with (its files partition already read), once it has listed it; empty if
   * it could not or there is no preload. The view is the caller's alone after this: the preload reads only footers.
   */
  public Optional<FileSystemView> listedView() {
    return thread == null ? Optional.empty() : listed.join();
  }

  /** Reads one file's footer (and bloom filter) into the preloaded footers; the bytes held, 0 if it failed. */
  private long preload(Storage storage, BaseFile f, boolean blooms) {
    try {
      BaseFileReader reader = BaseFileReader.open(storage, f.path(), f.size());
      if (blooms) {
        reader.bloomFilter();
      }
      footers.put(f.path(), new Preloaded(f.size(), reader));
      return metadataBytes(reader);
    } catch (RuntimeException e) {
      // not rethrown (see the class comment): a lookup that needs this file reads it again and reports the failure
      LOG.log(System.Logger.Level.DEBUG, () -> "footer preload skipped " + f.path() + ": " + e.getMessage());
      return 0;
    }
  }

  /** The characters of a footer's key-value metadata (the bloom filter is most of them). */
  private static long metadataBytes(BaseFileReader reader) {
    long n = 0;
    for (Map.Entry<String, String> e : reader.footer().keyValueMetadata().entrySet()) {
      n += e.getKey().length() + e.getValue().length();
    }
    return n;
  }

  /**
   * Asks the preload to end after the file it is reading, without waiting for it, and returns the footers read so far
   * by file path (a map the preload may still add that one file to; {@link #close} waits for it).
   */
  Map<String, Preloaded> stop() {
    stopped = true;
    return footers;
  }

  /**
   * Stops the preload, waits for its thread to end (a write, failed or not, leaves no thread behind) and lets the
   * footers go: once the batch is tagged they would only hold memory while the file groups are written.
   */
  @Override
  public void close() {
    stopped = true;
    awaitEnd();
    footers.clear();
  }

  /** Waits until the preload has read every footer it will (without stopping it). */
  void awaitEnd() {
    if (thread == null) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        // the preload ends on its own after one file: wait for it, then restore the caller's interrupt
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
