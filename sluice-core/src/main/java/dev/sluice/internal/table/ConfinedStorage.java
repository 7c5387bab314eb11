package dev.sluice.internal.table;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The storage of one table, refusing every change outside the table's base path: the last line of defence behind
 * the checks on input (partition values) and on table metadata. Every file a table handle writes, renames or
 * deletes goes through here ({@code Tables} wraps the storage once), so a path that would leave the table, by
 * {@code ..} levels or by naming another folder, fails loudly instead of touching anything. Reads are not confined.
 * The file-system lock folder ({@code hoodie.write.lock.filesystem.path}), which the user may put elsewhere on
 * purpose, is the one other root allowed.
 */
public final class ConfinedStorage implements Storage {
  private final Storage delegate;
  private final String base;
  private final List<String> roots;

  private ConfinedStorage(Storage delegate, String base, List<String> roots) {
    this.delegate = delegate;
    this.base = base;
    this.roots = roots;
  }

  /**
   * {@code storage} confined to {@code basePath} and the {@code extraRoots} (folders the configuration names, such
   * as the lock folder); a storage already confined to the same folders is returned as it is.
   */
  public static Storage of(Storage storage, String basePath, List<String> extraRoots) {
    List<String> roots = new java.util.ArrayList<>();
    roots.add(normalize(basePath).orElseThrow(() -> Errors.badRequest("Table path " + basePath,
        "it leads above the root of its file system", "Give the table's folder as an absolute path.")));
    for (String r : extraRoots) {
      normalize(r).ifPresent(roots::add);
    }
    if (storage instanceof ConfinedStorage c && c.roots.equals(roots)) {
      return c;
    }
    Storage inner = storage instanceof ConfinedStorage c ? c.delegate : storage;
    return new ConfinedStorage(inner, basePath, List.copyOf(roots));
  }

  /** The storage below the confinement (for code that must compare or unwrap storages). */
  public Storage delegate() {
    return delegate;
  }

  /**
   * {@code path} with {@code .} and {@code ..} levels resolved and doubled slashes removed, its scheme and
   * authority kept; empty if it contains a NUL or its {@code ..} levels climb above the root.
   */
  static Optional<String> normalize(String path) {
    if (path.indexOf('\0') >= 0) {
      return Optional.empty();
    }
    String prefix = "";
    String rest = path;
    int scheme = path.indexOf("://");
    int colon = path.indexOf(':');
    int firstSlash = path.indexOf('/');
    if (scheme > 0 && scheme == colon && (firstSlash < 0 || firstSlash > scheme)) {
      int slash = path.indexOf('/', scheme + 3);
      prefix = slash < 0 ? path : path.substring(0, slash);
      rest = slash < 0 ? "" : path.substring(slash);
    } else if (colon > 0 && (firstSlash < 0 || colon < firstSlash)) {
      prefix = path.substring(0, colon + 1);
      rest = path.substring(colon + 1);
    }
    Deque<String> levels = new ArrayDeque<>();
    for (String level : rest.split("/")) {
      if (level.isEmpty() || level.equals(".")) {
        continue;
      }
      if (level.equals("..")) {
        if (levels.isEmpty()) {
          return Optional.empty();
        }
        levels.removeLast();
      } else {
        levels.addLast(level);
      }
    }
    return Optional.of(prefix + (rest.startsWith("/") ? "/" : "") + String.join("/", levels));
  }

  /** True if {@code path} is one of the roots or below one. */
  boolean allows(String path) {
    Optional<String> n = normalize(path);
    if (n.isEmpty()) {
      return false;
    }
    for (String root : roots) {
      String p = n.get();
      if (p.equals(root) || p.startsWith(root.endsWith("/") ? root : root + "/")) {
        return true;
      }
    }
    return false;
  }

  private void check(String action, String path) {
    if (!allows(path)) {
      throw Errors.badTable(path, "Sluice refused to " + action + " it: the path is outside the table's base path "
          + base + ", and a table handle writes only inside its table",
          "Nothing was written there. A partition value, plan, marker or table property naming that path led"
          + " here: check the table's metadata (sluice timeline, sluice files), or report a bug in Sluice");
    }
  }

  @Override
  public String scheme() {
    return delegate.scheme();
  }

  @Override
  public Optional<FileInfo> info(String path) throws IOException {
    return delegate.info(path);
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    return delegate.list(dir);
  }

  @Override
  public SeekableInput openRead(String path) throws IOException {
    return delegate.openRead(path);
  }

  @Override
  public PositionOutputStream create(String path, boolean overwrite) throws IOException {
    check("create", path);
    return delegate.create(path, overwrite);
  }

  @Override
  public void createExclusive(String path, byte[] content) throws IOException {
    check("create", path);
    delegate.createExclusive(path, content);
  }

  @Override
  public boolean supportsAppend() {
    return delegate.supportsAppend();
  }

  @Override
  public PositionOutputStream append(String path) throws IOException {
    check("append to", path);
    return delegate.append(path);
  }

  @Override
  public boolean delete(String path) throws IOException {
    check("delete", path);
    return delegate.delete(path);
  }

  @Override
  public boolean deleteRecursively(String path) throws IOException {
    check("delete", path);
    return delegate.deleteRecursively(path);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    check("create the folder", dir);
    delegate.mkdirs(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    check("move", from);
    check("move a file to", to);
    delegate.rename(from, to);
  }
}
