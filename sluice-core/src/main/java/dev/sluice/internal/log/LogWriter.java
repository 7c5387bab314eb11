package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.storage.AppendRefusedException;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.util.KillPoints;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Appends blocks to the log of one file slice, choosing the file as Hudi 0.15 does
 * ({@code HoodieLogFormat.WriterBuilder}, {@code HoodieLogFormatWriter}):
 * <ul>
 *   <li>the latest existing log file of (fileId, base instant) is the target, with its version and write token;
 *       with none, version 1 with this writer's token;</li>
 *   <li>if the target exists and the storage can append (HDFS), blocks are appended to it; otherwise (local disk,
 *       object stores) the writer rolls over to the next version with this writer's token, so every writer
 *       session on such storage makes a new file; so it does when the store refuses the append
 *       ({@link AppendRefusedException}: on HDFS, a file still leased to a writer that died mid-append);</li>
 *   <li>after an append that leaves the file larger than the size limit, the next append goes to a new version, in
 *       this session or (if the latest file is already past the limit when the writer opens) the next one.</li>
 * </ul>
 * Blocks are written straight to the final file name, back to back, and synced once per {@link #appendBlocks}
 * call. Not thread-safe.
 *
 * <p>With {@link Builder#ownFileEachSession()} (what data writes and rollbacks use) a session never adds to a file
 * it did not create, on any store, as Hudi 1.x's writer does: each session's blocks are in files of their own, so a
 * rollback can delete them, and blocks of a failed write never sit in front of a later committed write's blocks in
 * the same file. A new file is claimed so that no two concurrent writers share a version:
 * <ol>
 *   <li>the version is one above the highest in a fresh listing of the slice;</li>
 *   <li>the file is created exclusively ({@code create(path, false)}): a writer that loses the create to one with the
 *       same name (same version and token) lists again and takes the next version;</li>
 *   <li>after the create the slice is listed again; if another file has the same version (another token: a Hudi
 *       writer, or a rollback's roll-over token), this writer deletes its still empty file and takes the next
 *       version. Whoever sees a shared version moves on, so at most one file keeps it.</li>
 * </ol>
 * This holds where a created file is listed at once (local disk, HDFS). On S3 an upload is listed only after it
 * closes; there concurrent writers rely on the conflict check at commit (optimistic concurrency control).
 */
public final class LogWriter implements Closeable {
  private static final Pattern WRITE_TOKEN = Pattern.compile("\\d+-\\d+-\\d+");
  /** Attempts to claim a new version before giving up with a CONFLICT (each is a create and a listing). */
  private static final int CLAIM_ATTEMPTS = 20;

  private final Storage storage;
  private final String partitionDir;
  private final String fileId;
  private final String baseInstant;
  private final String writeToken;
  private final long maxFileSize;
  private final String extension;
  private final Consumer<String> beforeOpen;
  private final boolean ownFile;
  private final BlockEncoder encoder = new BlockEncoder();
  private int version;
  private String token;
  private PositionOutputStream out;
  /** A file this session created that holds none of its blocks yet: removed again if the first append fails. */
  private String createdEmpty;
  private boolean closed;

  private LogWriter(Builder b, int version, String token) {
    this.storage = b.storage;
    this.partitionDir = b.partitionDir;
    this.fileId = b.fileId;
    this.baseInstant = b.baseInstant;
    this.writeToken = b.writeToken;
    this.maxFileSize = b.maxFileSize;
    this.extension = b.extension;
    this.beforeOpen = b.beforeOpen;
    this.ownFile = b.ownFile;
    this.version = version;
    this.token = token;
  }

  /**
   * Opens a writer for the slice (fileId, baseInstant) in {@code partitionDir}, listing the partition to find
   * the latest log file. {@code writeToken} names new files (Hudi passes the write handle's token as both the
   * initial and the roll-over token).
   */
  public static LogWriter open(Storage storage, String partitionDir, String fileId, String baseInstant, String writeToken,
                               long maxFileSize) {
    return builder(storage, partitionDir, fileId, baseInstant).writeToken(writeToken).maxFileSize(maxFileSize).open();
  }

  /** A builder for a writer of the slice (fileId, baseInstant) in {@code partitionDir}. */
  public static Builder builder(Storage storage, String partitionDir, String fileId, String baseInstant) {
    return new Builder(storage, partitionDir, fileId, baseInstant);
  }

  /** The path the next append goes to. */
  public String currentPath() {
    return StoragePaths.join(partitionDir, FileNames.logFileName(fileId, baseInstant, version, token, extension));
  }

  /** The log version the next append goes to. */
  public int currentVersion() {
    return version;
  }

  /**
   * Writes {@code blocks} back to back at the end of the current log file and syncs. A failure leaves at most a
   * partial block at the end of the file, which readers treat as a corrupt block; the next append then goes to
   * a new version.
   */
  public AppendResult appendBlocks(List<LogBlock> blocks) {
    if (closed) {
      throw Errors.internal("append to a closed log writer for " + currentPath(), null);
    }
    if (blocks.isEmpty()) {
      throw Errors.internal("append of no log blocks to " + currentPath(), null);
    }
    String path = currentPath();
    try {
      ByteSink bytes = encoder.encode(blocks);
      PositionOutputStream o = stream();
      path = currentPath();
      long start = o.position();
      KillPoints.reach("log.append.before");
      o.write(bytes.array(), 0, bytes.size());
      o.flush();
      o.sync();
      createdEmpty = null;
      KillPoints.reach("log.append.after");
      long end = o.position();
      AppendResult result = new AppendResult(
          new LogFile(path, StoragePaths.name(path), fileId, baseInstant, version, token, end), start, end - start, version);
      if (end > maxFileSize) {
        closeStream();
        if (ownFile) {
          version++;
        } else {
          rollOver();
        }
      }
      return result;
    } catch (FileAlreadyExistsException e) {
      abandonStream(e);
      throw Errors.conflict("Writing log file " + path, "another writer created it first");
    } catch (IOException e) {
      abandonStream(e);
      removeCreatedEmpty(e);
      throw Errors.storage("append log blocks to", path, e);
    } catch (RuntimeException e) {
      abandonStream(e);
      removeCreatedEmpty(e);
      throw e;
    }
  }

  private PositionOutputStream stream() throws IOException {
    if (out != null) {
      return out;
    }
    if (ownFile) {
      out = claimNewFile();
      return out;
    }
    String path = currentPath();
    if (storage.info(path).isPresent()) {
      if (storage.supportsAppend()) {
        try {
          beforeOpen.accept(path);
          out = storage.append(path);
          return out;
        } catch (AppendRefusedException e) {
          // leased to another (maybe dead) writer, or under lease recovery: a new version, as Hudi's writer does
        } catch (IOException e) {
          String msg = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
          if (!msg.contains("not supported")) {
            throw e;
          }
          // a mount that turns out not to append (viewfs): roll over as Hudi does
        }
      }
      rollOver();
      path = currentPath();
    }
    beforeOpen.accept(path);
    out = storage.create(path, false);
    return out;
  }

  /**
   * Creates this session's next file under a version no other file of the slice has (see the class comment) and
   * returns its stream.
   */
  private PositionOutputStream claimNewFile() throws IOException {
    for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        pause(attempt);
      }
      Optional<LogFile> latest = latestLogFile(storage, partitionDir, fileId, baseInstant, extension);
      if (latest.isPresent()) {
        version = Math.max(version, latest.get().version() + 1);
      }
      token = writeToken;
      String path = currentPath();
      beforeOpen.accept(path);
      PositionOutputStream created;
      try {
        created = storage.create(path, false);
      } catch (FileAlreadyExistsException e) {
        // another writer took this very name: the next listing shows it, and the next version is free
        version++;
        continue;
      }
      boolean shared;
      try {
        shared = sharesVersion(path);
      } catch (IOException | RuntimeException e) {
        createdEmpty = path;
        out = created;
        throw e;
      }
      if (!shared) {
        createdEmpty = path;
        return created;
      }
      // another file has this version: give ours up (nothing is written to it yet) and move above both
      created.close();
      storage.delete(path);
      version++;
    }
    throw Errors.conflict("Creating a log file of file group " + fileId + " in " + partitionDir,
        "other writers took every new log version tried (" + CLAIM_ATTEMPTS + " attempts)");
  }

  /** True if another log file of this slice has the version of {@code path}. */
  private boolean sharesVersion(String path) throws IOException {
    String name = StoragePaths.name(path);
    for (FileInfo f : storage.list(partitionDir)) {
      Optional<LogFileName> n = FileNames.parseLog(f.name());
      if (!f.directory() && n.isPresent() && !f.name().equals(name) && n.get().extension().equals(extension)
          && n.get().fileId().equals(fileId) && n.get().baseInstant().equals(baseInstant) && n.get().suffix().isEmpty()
          && n.get().version() == version) {
        return true;
      }
    }
    return false;
  }

  /** A short randomized wait, so that two writers that keep meeting on one version fall out of step. */
  private static void pause(int attempt) {
    try {
      Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, 5L * Math.min(attempt, 10) + 2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.internal("interrupted while choosing a log file version", e);
    }
  }

  private void rollOver() throws IOException {
    int next = version + 1;
    Optional<LogFile> latest = latestLogFile(storage, partitionDir, fileId, baseInstant, extension);
    if (latest.isPresent()) {
      next = Math.max(next, latest.get().version() + 1);
    }
    version = next;
    token = writeToken;
  }

  /** The latest log file of a slice in a partition listing ({@code FSUtils.getLatestLogVersion}); CDC logs excluded. */
  static Optional<LogFile> latestLogFile(Storage storage, String partitionDir, String fileId, String baseInstant)
      throws IOException {
    return latestLogFile(storage, partitionDir, fileId, baseInstant, FileNames.LOG_EXTENSION);
  }

  /** The latest file of a slice with the given extension ({@code log} or {@code archive}); CDC logs excluded. */
  static Optional<LogFile> latestLogFile(Storage storage, String partitionDir, String fileId, String baseInstant,
                                         String extension) throws IOException {
    LogFile latest = null;
    for (FileInfo f : storage.list(partitionDir)) {
      if (f.directory()) {
        continue;
      }
      Optional<LogFileName> n = FileNames.parseLog(f.name());
      if (n.isEmpty() || !n.get().extension().equals(extension) || !n.get().fileId().equals(fileId)
          || !n.get().baseInstant().equals(baseInstant) || !n.get().suffix().isEmpty()) {
        continue;
      }
      LogFile lf = new LogFile(f.path(), f.name(), fileId, baseInstant, n.get().version(), n.get().writeToken().orElse(""),
          f.length());
      if (latest == null || lf.compareTo(latest) > 0) {
        latest = lf;
      }
    }
    return Optional.ofNullable(latest);
  }

  /**
   * After a failed first append, deletes the file this session created for it (it holds no complete block of
   * ours), so that a failed write leaves no file behind that no instant references; its rollback leaves files without
   * a complete block of the instant alone, since it cannot tell them from another writer's.
   */
  private void removeCreatedEmpty(Exception cause) {
    if (createdEmpty == null) {
      return;
    }
    String path = createdEmpty;
    createdEmpty = null;
    try {
      storage.delete(path);
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private void closeStream() throws IOException {
    if (out != null) {
      PositionOutputStream o = out;
      out = null;
      o.close();
    }
  }

  private void abandonStream(Exception cause) {
    if (out == null) {
      return;
    }
    PositionOutputStream o = out;
    out = null;
    try {
      o.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /** Closes the current file (making its data durable); the writer cannot be used afterwards. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    String path = currentPath();
    try {
      closeStream();
    } catch (IOException e) {
      throw Errors.storage("close log file", path, e);
    }
  }

  /** Options of a {@link LogWriter}. */
  public static final class Builder {
    private final Storage storage;
    private final String partitionDir;
    private final String fileId;
    private final String baseInstant;
    private String writeToken = FileNames.DEFAULT_WRITE_TOKEN;
    private long maxFileSize = 1024L * 1024 * 1024;
    private String extension = FileNames.LOG_EXTENSION;
    private Optional<Optional<LogFile>> latest = Optional.empty();
    private Consumer<String> beforeOpen = p -> { };
    private boolean ownFile;

    private Builder(Storage storage, String partitionDir, String fileId, String baseInstant) {
      this.storage = Objects.requireNonNull(storage, "storage");
      this.partitionDir = Objects.requireNonNull(partitionDir, "partitionDir");
      this.fileId = Objects.requireNonNull(fileId, "fileId");
      this.baseInstant = Objects.requireNonNull(baseInstant, "baseInstant");
    }

    /** Token of files this writer creates (default {@code 0-0-0}, the Java client's). */
    public Builder writeToken(String token) {
      if (!WRITE_TOKEN.matcher(token).matches()) {
        throw Errors.internal("write token '" + token + "' is not <task>-<stage>-<attempt>", null);
      }
      this.writeToken = token;
      return this;
    }

    /** Size after which the next append rolls over to a new version ({@code hoodie.logfile.max.size}, default 1 GiB). */
    public Builder maxFileSize(long bytes) {
      if (bytes <= 0) {
        throw Errors.internal("log file size limit must be positive, got " + bytes, null);
      }
      this.maxFileSize = bytes;
      return this;
    }

    /**
     * The slice's latest log file as the caller's file system view knows it (empty: the slice has none), which
     * saves the partition listing ({@code HoodieWriteHandle.createLogWriter} does the same).
     */
    public Builder latestLogFile(Optional<LogFile> latestLogFile) {
      this.latest = Optional.of(latestLogFile);
      return this;
    }

    /** File extension without the dot: {@code log} (default) or {@code archive} for archived-timeline files. */
    public Builder extension(String ext) {
      if (!ext.equals(FileNames.LOG_EXTENSION) && !ext.equals(FileNames.ARCHIVE_EXTENSION)) {
        throw Errors.internal("log file extension must be log or archive, got '" + ext + "'", null);
      }
      this.extension = ext;
      return this;
    }

    /**
     * Called with the path of a log file just before it is created or opened for appending (Hudi's
     * {@code HoodieLogFileWriteCallback}); writers create their {@code APPEND} marker here, so that a marker
     * exists for every file the write touches. A failure of the callback fails the append.
     */
    public Builder beforeOpen(Consumer<String> callback) {
      this.beforeOpen = Objects.requireNonNull(callback, "callback");
      return this;
    }

    /**
     * Never adds to an existing file: the first append creates a new version of the slice's log, claimed so that no
     * concurrent writer shares it (see the class comment). Data writes and rollbacks use this; the latest-file and
     * size-limit rules of Hudi 0.15 then apply only within the session.
     */
    public Builder ownFileEachSession() {
      this.ownFile = true;
      return this;
    }

    /** Decides the target file (listing the partition unless told the latest log file); creates nothing yet. */
    public LogWriter open() {
      if (ownFile) {
        // the version is decided from a fresh listing when the first append creates the file
        int after = latest.flatMap(l -> l).map(l -> l.version() + 1).orElse(FileNames.FIRST_LOG_VERSION);
        return new LogWriter(this, after, writeToken);
      }
      Optional<LogFile> known;
      try {
        known = latest.isPresent() ? latest.get() : LogWriter.latestLogFile(storage, partitionDir, fileId,
            baseInstant, extension);
      } catch (IOException e) {
        throw Errors.storage("list log files of file group " + fileId + " in", partitionDir, e);
      }
      if (known.isEmpty()) {
        return new LogWriter(this, FileNames.FIRST_LOG_VERSION, writeToken);
      }
      LogFile lf = known.get();
      if (lf.writeToken().isEmpty()) {
        // a legacy name without token: never append to it
        return new LogWriter(this, lf.version() + 1, writeToken);
      }
      if (lf.size() > maxFileSize) {
        // already past the limit (an earlier session's last append crossed it): start the next version, so that
        // one-append-per-commit writers roll over too (Hudi rolls over only within a session)
        return new LogWriter(this, lf.version() + 1, writeToken);
      }
      return new LogWriter(this, lf.version(), lf.writeToken());
    }
  }
}
