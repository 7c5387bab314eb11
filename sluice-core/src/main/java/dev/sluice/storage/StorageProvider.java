package dev.sluice.storage;

import java.util.Map;
import java.util.Set;

/**
 * Service-provider interface (java.util.ServiceLoader) that lets a module such as {@code sluice-hadoop} serve
 * URI schemes the core cannot, without the core depending on it.
 */
public interface StorageProvider {
  /** The schemes served, e.g. {@code hdfs}, {@code s3a}. */
  Set<String> schemes();

  /** A storage for {@code location} with the given storage settings (e.g. Hadoop keys). */
  Storage create(String location, Map<String, String> settings);
}
