package dev.sluice.storage;

/** Joining and splitting of slash-separated storage paths and URIs. */
public final class StoragePaths {
  private StoragePaths() {
  }

  /** {@code base + "/" + relative}, with no doubled slash; an empty relative returns base. */
  public static String join(String base, String relative) {
    if (relative == null || relative.isEmpty()) {
      return base;
    }
    String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    String r = relative.startsWith("/") ? relative.substring(1) : relative;
    return b + "/" + r;
  }

  /** Joins several components. */
  public static String join(String base, String first, String... more) {
    String out = join(base, first);
    for (String m : more) {
      out = join(out, m);
    }
    return out;
  }

  /** The last component of a path. */
  public static String name(String path) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    int i = p.lastIndexOf('/');
    return i < 0 ? p : p.substring(i + 1);
  }

  /** The path without its last component. */
  public static String parent(String path) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    int i = p.lastIndexOf('/');
    return i <= 0 ? (i == 0 ? "/" : "") : p.substring(0, i);
  }

  /** The URI scheme of a location, or {@code file} when it has none. */
  public static String scheme(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    if (colon > 1 && (slash < 0 || colon < slash)) {
      return location.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
    }
    return "file";
  }

  /**
   * The path of {@code path} relative to {@code base} (both in the same form), e.g. the partition path of a
   * file. Returns "" if they are equal.
   */
  public static String relativize(String base, String path) {
    String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    if (path.equals(b)) {
      return "";
    }
    if (!path.startsWith(b + "/")) {
      throw new IllegalArgumentException(path + " is not under " + base);
    }
    return path.substring(b.length() + 1);
  }
}
