package dev.sluice.bench.measure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The command line of a benchmark worker: {@code STEP --name value ...}. The driver writes it; the Sluice and the
 * Hudi worker read it with this class, so both run a step with the same numbers.
 *
 * @param step the step to run (e.g. {@code upsert})
 * @param options the {@code --name value} pairs
 */
public record StepArgs(String step, Map<String, String> options) {

  /** Parses {@code args}: the step name, then {@code --name value} pairs. */
  public static StepArgs parse(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: STEP [--name value ...]");
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value at '" + a + "'");
      }
      options.put(a.substring(2), args[++i]);
    }
    return new StepArgs(args[0], Collections.unmodifiableMap(options));
  }

  /** The command line for {@code step} with {@code options}. */
  public static List<String> format(String step, Map<String, String> options) {
    List<String> out = new ArrayList<>();
    out.add(step);
    options.forEach((k, v) -> {
      out.add("--" + k);
      out.add(v);
    });
    return out;
  }

  /** A required option. */
  public String get(String name) {
    String v = options.get(name);
    if (v == null) {
      throw new IllegalArgumentException("step " + step + " needs --" + name);
    }
    return v;
  }

  /** An optional option. */
  public Optional<String> find(String name) {
    return Optional.ofNullable(options.get(name));
  }

  /** A required whole number. */
  public long getLong(String name) {
    return Long.parseLong(get(name));
  }

  /** A whole number with a default. */
  public long getLong(String name, long dflt) {
    return find(name).map(Long::parseLong).orElse(dflt);
  }

  /** A required int. */
  public int getInt(String name) {
    return Integer.parseInt(get(name));
  }

  /** A comma-separated list (empty when absent). */
  public List<String> list(String name) {
    String v = options.get(name);
    List<String> out = new ArrayList<>();
    if (v != null) {
      for (String s : v.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return out;
  }
}
