package dev.sluice.hadoop;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Create-if-absent publishing and no-replace renames on Hadoop file systems. Hadoop's {@code FileSystem}
 * offers no portable "create exclusively, visible complete" call, so the strategy depends on the store; see
 * {@link HadoopStorage#createExclusive} for what each guarantees.
 */
final class ExclusiveWrites {
  /**
   * Hadoop's create-file option for an atomic put-if-absent checked in close() (S3A from Hadoop 3.4.2;
   * Hadoop 3.4.1 does not know it). A store that supports it declares it as a path capability.
   */
  static final String CONDITIONAL_OVERWRITE = "fs.option.create.conditional.overwrite";

  /** Stores where a file appears only when its writer closes it (one PUT or upload completion). */
  private static final Set<String> OBJECT_STORES = Set.of("s3a", "s3", "s3n", "gs", "oss", "cosn", "obs");

  private ExclusiveWrites() {
  }

  /** How {@link #publish} makes a file appear whole and only once. */
  enum Mode {
    /** Local disk: write a temp file, hard-link it to the name (atomic, fails if it exists). */
    LINK,
    /** Object stores: write the object directly, no overwrite; it is visible only after close. */
    DIRECT,
    /** HDFS and other file systems: write a temp file, rename it without replacing. */
    RENAME
  }

  static Mode modeOf(FileSystem fs) {
    if (rawLocal(fs) != null) {
      return Mode.LINK;
    }
    String scheme = fs.getUri().getScheme();
    if (scheme != null && OBJECT_STORES.contains(scheme.toLowerCase(Locale.ROOT))) {
      return Mode.DIRECT;
    }
    return Mode.RENAME;
  }

  /** Writes {@code content} to {@code target} (shown to callers as {@code path}) if nothing is there. */
  static void publish(FileSystem fs, Path target, String path, byte[] content) throws IOException {
    switch (modeOf(fs)) {
      case LINK -> publishByLink(fs, rawLocal(fs), target, path, content);
      case DIRECT -> publishDirect(fs, target, path, content);
      default -> publishByRename(fs, target, path, content);
    }
  }

  /** The raw local file system under {@code fs}, or null if {@code fs} is not the local file system. */
  static RawLocalFileSystem rawLocal(FileSystem fs) {
    if (fs instanceof RawLocalFileSystem raw) {
      return raw;
    }
    if (fs instanceof LocalFileSystem local && local.getRawFileSystem() instanceof RawLocalFileSystem raw) {
      return raw;
    }
    return null;
  }

  private static Path tempFor(Path target) {
    return new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
  }

  private static void writeWhole(FileSystem fs, Path file, byte[] content) throws IOException {
    try (FSDataOutputStream out = fs.create(file, false)) {
      out.write(content);
      HadoopOutput.syncStream(out);
    }
  }

  private static void publishByLink(FileSystem fs, RawLocalFileSystem raw, Path target, String path, byte[] content)
      throws IOException {
    Path tmp = tempFor(target);
    File tmpFile = raw.pathToFile(tmp);
    File targetFile = raw.pathToFile(target);
    if (targetFile.exists()) {
      // not needed for correctness (the link decides), but spares the loser of a race writing a temp file
      throw NioErrors.alreadyExists(path, null);
    }
    try {
      // written through fs so that a checksummed local FS also writes the temp file's .crc
      writeWhole(fs, tmp, content);
      try {
        Files.createLink(targetFile.toPath(), tmpFile.toPath());
      } catch (java.nio.file.FileAlreadyExistsException e) {
        throw NioErrors.alreadyExists(path, e);
      }
      if (fs instanceof ChecksumFileSystem checksummed) {
        moveChecksum(checksummed, raw, tmp, target);
      }
    } finally {
      removeTemp(fs, tmp, tmpFile);
    }
    fsyncDir(targetFile.getParentFile());
  }

  /**
   * Gives the published file the temp file's checksum. The target is ours now, so replacing a stale .crc
   * left by a file deleted behind Hadoop's back is right; without a temp .crc a stale one is removed.
   */
  private static void moveChecksum(ChecksumFileSystem fs, RawLocalFileSystem raw, Path tmp, Path target)
      throws IOException {
    java.nio.file.Path tmpCrc = raw.pathToFile(fs.getChecksumFile(tmp)).toPath();
    java.nio.file.Path targetCrc = raw.pathToFile(fs.getChecksumFile(target)).toPath();
    if (Files.exists(tmpCrc)) {
      Files.move(tmpCrc, targetCrc, StandardCopyOption.ATOMIC_MOVE);
    } else {
      Files.deleteIfExists(targetCrc);
    }
  }

  private static void removeTemp(FileSystem fs, Path tmp, File tmpFile) {
    try {
      fs.delete(tmp, false);
    } catch (IOException e) {
      // the publish outcome is already decided; failing now would misreport it. A hidden temp file is harmless.
      tmpFile.deleteOnExit();
    }
  }

  private static void fsyncDir(File dir) {
    if (dir == null) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir.toPath(), StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some platforms cannot open directories; the file itself is already synced
      return;
    }
  }

  private static void publishDirect(FileSystem fs, Path target, String path, byte[] content) throws IOException {
    boolean conditional = fs.hasPathCapability(target, CONDITIONAL_OVERWRITE);
    try {
      if (conditional) {
        FSDataOutputStreamBuilder<?, ?> builder = fs.createFile(target);
        try (FSDataOutputStream out = builder.overwrite(false).recursive().must(CONDITIONAL_OVERWRITE, true).build()) {
          out.write(content);
        }
      } else {
        try (FSDataOutputStream out = fs.create(target, false)) {
          out.write(content);
        }
      }
    } catch (FileAlreadyExistsException e) {
      throw NioErrors.alreadyExists(path, e);
    } catch (IOException e) {
      if (conditional && isPreconditionFailure(e)) {
        throw NioErrors.alreadyExists(path, e);
      }
      throw e;
    }
  }

  /** S3A reports a failed If-None-Match PUT (HTTP 412) as RemoteFileChangedException, not on our class path. */
  private static boolean isPreconditionFailure(IOException e) {
    return e.getClass().getName().endsWith(".RemoteFileChangedException");
  }

  private static void publishByRename(FileSystem fs, Path target, String path, byte[] content) throws IOException {
    if (fs.exists(target)) {
      throw NioErrors.alreadyExists(path, null);
    }
    Path tmp = tempFor(target);
    try {
      writeWhole(fs, tmp, content);
      renameNoReplace(fs, tmp, target, tmp.toString(), path);
    } catch (IOException | RuntimeException e) {
      try {
        fs.delete(tmp, false);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /**
   * Renames {@code src} to {@code dst}, failing with FileAlreadyExistsException if {@code dst} exists. On HDFS
   * this is the NameNode's atomic no-overwrite rename. Elsewhere it is a check, then {@code FileSystem.rename},
   * whose false result is explained by looking again: a file at {@code dst} means a concurrent writer won.
   * HDFS's plain rename also refuses an existing file atomically; local rename would replace it, which is why
   * local publishing links instead.
   */
  static void renameNoReplace(FileSystem fs, Path src, Path dst, String from, String to) throws IOException {
    if (fs instanceof DistributedFileSystem dfs) {
      try {
        dfs.rename(src, dst, Options.Rename.NONE);
      } catch (FileAlreadyExistsException e) {
        throw NioErrors.alreadyExists(to, e);
      } catch (FileNotFoundException e) {
        throw NioErrors.noSuchFile(from, e);
      }
      return;
    }
    if (fs.exists(dst)) {
      throw NioErrors.alreadyExists(to, null);
    }
    boolean renamed;
    try {
      renamed = fs.rename(src, dst);
    } catch (FileNotFoundException e) {
      throw NioErrors.noSuchFile(from, e);
    }
    if (!renamed) {
      if (fs.exists(dst)) {
        throw NioErrors.alreadyExists(to, null);
      }
      if (!fs.exists(src)) {
        throw NioErrors.noSuchFile(from, null);
      }
      throw new IOException("Could not rename " + from + " to " + to);
    }
  }
}
