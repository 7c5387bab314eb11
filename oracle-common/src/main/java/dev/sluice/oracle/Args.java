package dev.sluice.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Plain {@code --name value} / {@code --flag} argument parsing for the oracle's subcommands.
 * {@code --conf k=v} may repeat; every other option appears at most once.
 */
final class Args {

  private final Map<String, String> options;
  private final Set<String> flags;
  private final Map<String, String> conf;

  private Args(Map<String, String> options, Set<String> flags, Map<String, String> conf) {
    this.options = options;
    this.flags = flags;
    this.conf = conf;
  }

  /**
   * Parses {@code args}; {@code flagNames} lists the options that take no value.
   */
  static Args parse(List<String> args, Set<String> flagNames) {
    Map<String, String> options = new LinkedHashMap<>();
    Map<String, String> conf = new LinkedHashMap<>();
    Set<String> flags = new HashSet<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        throw new UsageException("unexpected argument: " + arg);
      }
      String name = arg.substring(2);
      if (flagNames.contains(name)) {
        flags.add(name);
        continue;
      }
      if (i + 1 >= args.size()) {
        throw new UsageException("option --" + name + " needs a value");
      }
      String value = args.get(++i);
      if (name.equals("conf")) {
        int eq = value.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("--conf expects key=value, got: " + value);
        }
        conf.put(value.substring(0, eq), value.substring(eq + 1));
      } else if (options.put(name, value) != null) {
        throw new UsageException("option --" + name + " given twice");
      }
    }
    return new Args(options, flags, conf);
  }

  String required(String name) {
    String value = options.get(name);
    if (value == null) {
      throw new UsageException("missing required option --" + name);
    }
    return value;
  }

  Optional<String> optional(String name) {
    return Optional.ofNullable(options.get(name));
  }

  boolean flag(String name) {
    return flags.contains(name);
  }

  /** Comma-separated list option; empty when absent. */
  List<String> list(String name) {
    String value = options.get(name);
    if (value == null || value.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String part : value.split(",")) {
      String trimmed = part.trim();
      if (!trimmed.isEmpty()) {
        out.add(trimmed);
      }
    }
    return Collections.unmodifiableList(out);
  }

  Map<String, String> conf() {
    return Collections.unmodifiableMap(conf);
  }

  /** Thrown for bad command lines; the oracle prints it with usage and exits with code 2. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }
}
