package dev.sluice.hadoop;

import dev.sluice.storage.AppendRefusedException;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@link Storage} over a Hadoop {@link FileSystem}: HDFS, S3A, ViewFS, ABFS, GCS and whatever else Hadoop has
 * on the class path. Paths are kept in the caller's form: a listing of {@code hdfs://nn:8020/t} yields
 * {@code hdfs://nn:8020/t/child}, never Hadoop's re-qualified spelling. Scheme-less paths resolve against the
 * file system of the location this storage was made for ({@code file:///} for a plain local path).
 *
 * <p>File systems come from {@link FileSystem#get(URI, Configuration)}, Hadoop's process-wide cache keyed by
 * scheme, authority and user. One consequence: the first storage to touch, say, {@code s3a://bucket} fixes
 * that instance's settings; set {@code fs.<scheme>.impl.disable.cache=true} to give differing settings their
 * own instances. With the cache disabled, each storage makes one instance for its own scheme and authority and
 * keeps it (Hadoop would otherwise make, and never close, a new client per call). The class is thread-safe: it
 * holds an immutable view of its configuration and at most that one lazily made instance.
 */
public final class HadoopStorage implements Storage {
  private final String scheme;
  private final URI baseUri;
  private final Path location;
  private final Configuration conf;
  /** Whether a viewfs mount supports append; probed once, lazily, as it needs the mount table. */
  private volatile Boolean viewfsAppend;
  /** This storage's own file system instance, kept only when Hadoop's cache is disabled for the scheme. */
  private volatile FileSystem ownFs;

  private HadoopStorage(String scheme, URI baseUri, Path location, Configuration conf) {
    this.scheme = scheme;
    this.baseUri = baseUri;
    this.location = location;
    this.conf = conf;
  }

  /**
   * A storage for paths like {@code location} using (a copy of) {@code conf}. No file system is contacted until
   * the first operation.
   */
  public static HadoopStorage forLocation(String location, Configuration conf) {
    Path loc = new Path(location);
    URI uri = loc.toUri();
    String scheme = uri.getScheme() == null ? "file" : uri.getScheme().toLowerCase(Locale.ROOT);
    String authority = uri.getAuthority() == null ? "" : uri.getAuthority();
    URI base = URI.create(scheme + "://" + authority + "/");
    return new HadoopStorage(scheme, base, loc, new Configuration(conf));
  }

  /** A copy of the configuration file systems are made with (for tests and diagnostics). */
  Configuration configuration() {
    return new Configuration(conf);
  }

  /** The file system for {@code p}; package-private for tests. */
  FileSystem fsFor(Path p) throws IOException {
    URI u = p.toUri();
    URI target = u.getScheme() == null ? baseUri : u;
    // with Hadoop's cache on, get() returns the shared instance (and replaces one that was closed)
    if (!isOwn(target) || !conf.getBoolean("fs." + scheme + ".impl.disable.cache", false)) {
      return FileSystem.get(target, conf);
    }
    FileSystem fs = ownFs;
    if (fs == null) {
      synchronized (this) {
        fs = ownFs;
        if (fs == null) {
          fs = FileSystem.get(baseUri, conf);
          ownFs = fs;
        }
      }
    }
    return fs;
  }

  private boolean isOwn(URI target) {
    String s = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
    String a = target.getAuthority() == null ? "" : target.getAuthority();
    String baseAuthority = baseUri.getAuthority() == null ? "" : baseUri.getAuthority();
    return s.equals(scheme) && a.equalsIgnoreCase(baseAuthority);
  }

  @Override
  public String scheme() {
    return scheme;
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    Path p = new Path(path);
    try {
      return Optional.of(toInfo(path, fsFor(p).getFileStatus(p)));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

  private static FileInfo toInfo(String path, FileStatus s) {
    return new FileInfo(path, s.isDirectory() ? 0 : s.getLen(), s.isDirectory(), s.getModificationTime());
  }

  /**
   * {@inheritDoc} Children are named {@code dir + "/" + name}, so they keep exactly the prefix the caller used.
   * Hadoop's checksummed local file system hides its {@code .crc} side files here; other stores show what is
   * there. A file instead of a directory lists as empty, as in LocalStorage.
   */
  @Override
  public List<FileInfo> list(String dir) throws IOException {
    Path p = new Path(dir);
    FileSystem fs = fsFor(p);
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(p);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    // listing a file returns that file itself; identified by its full path, as a child's path is longer
    if (statuses.length == 1 && !statuses[0].isDirectory()
        && statuses[0].getPath().toUri().getPath().equals(fs.makeQualified(p).toUri().getPath())) {
      return List.of();
    }
    List<FileInfo> out = new ArrayList<>(statuses.length);
    for (FileStatus s : statuses) {
      out.add(toInfo(StoragePaths.join(dir, s.getPath().getName()), s));
    }
    out.sort(Comparator.comparing(FileInfo::path));
    return out;
  }

  /** {@inheritDoc} A missing file raises {@link java.nio.file.NoSuchFileException}, as LocalStorage does. */
  @Override
  public SeekableInput openRead(String path) throws IOException {
    Path p = new Path(path);
    FileSystem fs = fsFor(p);
    try {
      return new HadoopInput(fs.open(p), fs, p);
    } catch (FileNotFoundException e) {
      throw NioErrors.noSuchFile(path, e);
    }
  }

  /**
   * {@inheritDoc} Without overwrite the existence check is atomic on HDFS; on local disk and S3A it is a check
   * before writing. {@code sync()} is hsync where the stream can; close syncs, then closes.
   */
  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    Path p = new Path(path);
    try {
      return new HadoopOutput(fsFor(p).create(p, overwrite));
    } catch (FileAlreadyExistsException e) {
      throw NioErrors.alreadyExists(path, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>What each store guarantees:
   * <ul>
   *   <li>HDFS (and any {@code DistributedFileSystem}): the content is written to a hidden temp file next to
   *   the target and hsynced, then renamed with the NameNode's no-overwrite rename. Atomic and exclusive:
   *   exactly one of several racing writers succeeds, readers see nothing or the whole file.</li>
   *   <li>Local disk ({@code file}): temp file, then a hard link to the final name (atomic, fails if it exists),
   *   then the temp file's {@code .crc} is moved beside the target. Atomic and exclusive.</li>
   *   <li>Object stores ({@code s3a}, {@code s3}, {@code gs}, ...): one create without overwrite, written and
   *   closed; the object appears whole at close (a single PUT for small files). If the store declares the
   *   {@code fs.option.create.conditional.overwrite} capability (S3A from Hadoop 3.4.2) it is requested, and
   *   the PUT is conditional (If-None-Match) and so exclusive. Hadoop 3.4.1's S3A lacks it: it checks for an
   *   existing object first, and two writers racing past that check both succeed, the last PUT winning.
   *   With {@code fs.s3a.create.performance=true} even that check is skipped; do not set it for tables.</li>
   *   <li>Others (viewfs, abfs, wasb, ...): existence check, temp file, {@code FileSystem.rename}; a false
   *   result with a file at the target is reported as FileAlreadyExistsException. Exclusive where the store's
   *   rename refuses existing targets atomically (HDFS under viewfs, ADLS Gen2 with hierarchical namespace).</li>
   * </ul>
   */
  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    Path p = new Path(path);
    ExclusiveWrites.publish(fsFor(p), p, path, content);
  }

  /**
   * {@inheritDoc} True for HDFS, and for viewfs when the mount under this storage's location says it can
   * append; false for local disk (Hadoop's checksummed local file system cannot append) and object stores.
   */
  @Override
  public boolean supportsAppend() {
    if (scheme.equals("hdfs")) {
      return true;
    }
    if (!scheme.equals("viewfs")) {
      return false;
    }
    Boolean known = viewfsAppend;
    if (known == null) {
      try {
        known = fsFor(location).hasPathCapability(location, CommonPathCapabilities.FS_APPEND);
      } catch (IOException e) {
        // the mount table could not be read: claim nothing now (writers start new log files) and ask again later
        return false;
      }
      viewfsAppend = known;
    }
    return known;
  }

  @Override
  public PositionOutputStream append(String path) throws IOException {
    if (!supportsAppend()) {
      return Storage.super.append(path);
    }
    Path p = new Path(path);
    try {
      return new HadoopOutput(fsFor(p).append(p));
    } catch (FileNotFoundException e) {
      throw NioErrors.noSuchFile(path, e);
    } catch (IOException e) {
      Optional<String> refusal = AppendRefusals.reason(e);
      if (refusal.isPresent()) {
        throw new AppendRefusedException(path, refusal.get(), e);
      }
      throw e;
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    Path p = new Path(path);
    return fsFor(p).delete(p, false);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    Path p = new Path(path);
    return fsFor(p).delete(p, true);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    Path p = new Path(dir);
    boolean made;
    try {
      made = fsFor(p).mkdirs(p);
    } catch (FileAlreadyExistsException e) {
      throw NioErrors.alreadyExists(dir, e);
    }
    if (!made) {
      throw new IOException("Could not create directory " + dir);
    }
  }

  /**
   * {@inheritDoc} Creates the target's parent directories; refuses an existing target with
   * {@link java.nio.file.FileAlreadyExistsException} (atomically on HDFS) and a missing source with
   * {@link java.nio.file.NoSuchFileException}.
   */
  @Override
  public void rename(String from, String to) throws IOException {
    Path src = new Path(from);
    Path dst = new Path(to);
    FileSystem fs = fsFor(src);
    if (!fs.getUri().equals(fsFor(dst).getUri())) {
      throw new IOException("Cannot rename across file systems: " + from + " to " + to);
    }
    Path parent = dst.getParent();
    if (parent != null && !fs.mkdirs(parent)) {
      throw new IOException("Could not create directory " + parent);
    }
    ExclusiveWrites.renameNoReplace(fs, src, dst, from, to);
  }
}
