package dev.sluice.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Immutable settings: string properties read through typed {@link ConfigKey}s. This is the one place that
 * reads configuration values; everything else asks it with a key.
 */
public final class Config {
  private static final Config EMPTY = new Config(Map.of());

  private final Map<String, String> values;

  private Config(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** No settings: every key has its default. */
  public static Config empty() {
    return EMPTY;
  }

  /** Settings from a map of property names to values. */
  public static Config of(Map<String, String> values) {
    return new Config(values);
  }

  /** Loads a Java properties file. */
  public static Config load(Path file) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read config file " + file, e);
    }
    Map<String, String> m = new LinkedHashMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return new Config(m);
  }

  /** The typed value of {@code key}, or its default. */
  public <T> T get(ConfigKey<T> key) {
    String v = values.get(key.name());
    return v == null ? key.defaultValue() : key.parser().apply(v);
  }

  /** True if {@code key} is set explicitly. */
  public boolean isSet(ConfigKey<?> key) {
    return values.containsKey(key.name());
  }

  /** A copy with {@code other}'s settings layered over these. */
  public Config with(Config other) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.putAll(other.values);
    return new Config(m);
  }

  /** A copy with one more setting. */
  public Config with(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.put(key, value);
    return new Config(m);
  }

  /** Every explicitly set property (for passing storage settings through). */
  public Map<String, String> asMap() {
    return values;
  }
}
