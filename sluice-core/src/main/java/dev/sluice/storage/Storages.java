package dev.sluice.storage;

import dev.sluice.internal.error.Errors;
import java.util.Map;
import java.util.ServiceLoader;

/** Picks the storage for a table location by its URI scheme. */
public final class Storages {
  private Storages() {
  }

  /**
   * The storage for {@code location}: local NIO for plain paths and {@code file:}, unless
   * {@code sluice.storage.local=hadoop} asks for Hadoop's local file system; otherwise the first
   * {@link StorageProvider} on the class path that serves the scheme.
   */
  public static Storage forLocation(String location, Map<String, String> settings) {
    String scheme = StoragePaths.scheme(location);
    boolean hadoopLocal = "hadoop".equals(settings.get("sluice.storage.local"));
    if (scheme.equals("file") && !hadoopLocal) {
      return new LocalStorage();
    }
    for (StorageProvider p : ServiceLoader.load(StorageProvider.class)) {
      if (p.schemes().contains(scheme)) {
        return p.create(location, settings);
      }
    }
    throw Errors.unsupported("Storage scheme '" + scheme + "' (in " + location + ")",
        "Put sluice-hadoop on the class path for hdfs://, s3a:// and other Hadoop file systems.");
  }
}
