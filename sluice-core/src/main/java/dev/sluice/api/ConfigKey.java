package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import java.util.Locale;
import java.util.function.Function;

/**
 * A typed configuration key. The name is Hudi's property name where Hudi has one; the default and its
 * documentation live next to the key in {@link ConfigKeys}.
 *
 * @param name property name, e.g. {@code hoodie.parquet.max.file.size}
 * @param defaultValue value when unset (may be null only for keys with no default)
 * @param doc one-line description for the README and {@code --help}
 * @param parser turns the string form into the typed value
 * @param <T> value type
 */
public record ConfigKey<T>(String name, T defaultValue, String doc, Function<String, T> parser) {

  /** A long-valued key. */
  public static ConfigKey<Long> ofLong(String name, long def, String doc) {
    return new ConfigKey<>(name, def, doc, v -> {
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw Errors.badConfig(name, v, "a whole number");
      }
    });
  }

  /** An int-valued key. */
  public static ConfigKey<Integer> ofInt(String name, int def, String doc) {
    return new ConfigKey<>(name, def, doc, v -> {
      try {
        return Integer.parseInt(v.trim());
      } catch (NumberFormatException e) {
        throw Errors.badConfig(name, v, "a whole number");
      }
    });
  }

  /** A double-valued key. */
  public static ConfigKey<Double> ofDouble(String name, double def, String doc) {
    return new ConfigKey<>(name, def, doc, v -> {
      try {
        return Double.parseDouble(v.trim());
      } catch (NumberFormatException e) {
        throw Errors.badConfig(name, v, "a number");
      }
    });
  }

  /** A boolean key: {@code true} or {@code false}. */
  public static ConfigKey<Boolean> ofBoolean(String name, boolean def, String doc) {
    return new ConfigKey<>(name, def, doc, v -> {
      String s = v.trim().toLowerCase(Locale.ROOT);
      if (!s.equals("true") && !s.equals("false")) {
        throw Errors.badConfig(name, v, "true or false");
      }
      return Boolean.parseBoolean(s);
    });
  }

  /** A string key. */
  public static ConfigKey<String> ofString(String name, String def, String doc) {
    return new ConfigKey<>(name, def, doc, String::trim);
  }

  /** An enum key, matched case-insensitively on the constant name. */
  public static <E extends Enum<E>> ConfigKey<E> ofEnum(String name, Class<E> type, E def, String doc) {
    return new ConfigKey<>(name, def, doc, v -> {
      try {
        return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw Errors.badConfig(name, v, "one of " + java.util.Arrays.toString(type.getEnumConstants()));
      }
    });
  }
}
