package dev.sluice.spark;

import dev.sluice.api.Config;
import dev.sluice.api.QueryType;
import dev.sluice.api.Scan;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The options of a {@code spark.read.format("sluice")} query, by Hudi's datasource names, so that a Hudi-on-Spark
 * read carries over: the query type, the incremental range and the time-travel instant; every {@code hoodie.*}
 * option that is not a datasource option, and every {@code sluice.*} option, goes to the engine as it is.
 *
 * @param path the table's base path ({@code load(path)} or the {@code path} option)
 * @param queryType {@code hoodie.datasource.query.type}: snapshot (default), read_optimized or incremental
 * @param begin {@code hoodie.datasource.read.begin.instanttime}: incremental, exclusive (required there); {@code ""}
 *     when not given (the components are plain strings: Spark serializes this to its tasks, Optional is not
 *     serializable; {@link #beginInstant()} and the others give the Optionals)
 * @param end {@code hoodie.datasource.read.end.instanttime}: incremental, inclusive (default the latest)
 * @param asOfTime {@code as.of.instant}: time travel (snapshot and read-optimized)
 * @param engineOptions the engine's options
 */
record ReadOptions(String path, QueryType queryType, String begin, String end, String asOfTime,
    Map<String, String> engineOptions) implements Serializable {
  static final String PATH = "path";
  static final String QUERY_TYPE = "hoodie.datasource.query.type";
  static final String BEGIN = "hoodie.datasource.read.begin.instanttime";
  static final String END = "hoodie.datasource.read.end.instanttime";
  static final String AS_OF = "as.of.instant";
  private static final String DATASOURCE = "hoodie.datasource.";

  /**
   * Reads {@code options} (keys compared without case, as Spark passes them); refuses a missing path, an unknown
   * query type, an incremental query without its begin instant and a range or instant on a query type that does
   * not take it, each by the option's name.
   */
  static ReadOptions of(Map<String, String> options) {
    Map<String, String> lower = new HashMap<>();
    Map<String, String> engine = new HashMap<>();
    options.forEach((k, v) -> {
      lower.put(k.toLowerCase(Locale.ROOT), v);
      String key = k.toLowerCase(Locale.ROOT);
      if (key.startsWith("sluice.") || key.startsWith("hoodie.") && !key.startsWith(DATASOURCE)) {
        engine.put(k, v);
      }
    });
    String path = lower.get(PATH);
    if (path == null || path.isBlank()) {
      throw SluiceException.badConfig(PATH, "(missing)", "the table's base path: spark.read.format(\"sluice\")"
          + ".load(path)");
    }
    String type = lower.getOrDefault(QUERY_TYPE, "snapshot").trim().toLowerCase(Locale.ROOT);
    QueryType queryType = switch (type) {
      case "snapshot" -> QueryType.SNAPSHOT;
      case "read_optimized" -> QueryType.READ_OPTIMIZED;
      case "incremental" -> QueryType.INCREMENTAL;
      default -> throw SluiceException.badConfig(QUERY_TYPE, type, "snapshot, read_optimized or incremental");
    };
    Optional<String> begin = instant(lower, BEGIN);
    Optional<String> end = instant(lower, END);
    Optional<String> asOf = instant(lower, AS_OF);
    if (queryType == QueryType.INCREMENTAL) {
      if (begin.isEmpty()) {
        throw SluiceException.badConfig(BEGIN, "(missing)", "the instant an incremental query starts after "
            + "(yyyyMMddHHmmssSSS)");
      }
      if (asOf.isPresent()) {
        throw SluiceException.badConfig(AS_OF, asOf.get(), "no time travel on an incremental query: give the "
            + "range's end with " + END);
      }
    } else if (begin.isPresent() || end.isPresent()) {
      throw SluiceException.badConfig(begin.isPresent() ? BEGIN : END, begin.or(() -> end).get(),
          "an incremental range only with " + QUERY_TYPE + "=incremental");
    }
    return new ReadOptions(path, queryType, begin.orElse(""), end.orElse(""), asOf.orElse(""), Map.copyOf(engine));
  }

  /** The incremental range's begin (exclusive), if given. */
  Optional<String> beginInstant() {
    return Optional.of(begin).filter(s -> !s.isEmpty());
  }

  /** The incremental range's end (inclusive), if given. */
  Optional<String> endInstant() {
    return Optional.of(end).filter(s -> !s.isEmpty());
  }

  /** The time-travel instant, if given. */
  Optional<String> asOf() {
    return Optional.of(asOfTime).filter(s -> !s.isEmpty());
  }

  /**
   * An instant option: digits ({@code yyyyMMddHHmmssSSS} or a prefix), or Hudi's other spellings of one
   * ({@code yyyy-MM-dd HH:mm:ss.SSS}, {@code yyyy-MM-dd}) with their separators dropped.
   */
  private static Optional<String> instant(Map<String, String> lower, String key) {
    String v = lower.get(key);
    if (v == null || v.isBlank()) {
      return Optional.empty();
    }
    String digits = v.trim().replaceAll("[-: .T]", "");
    if (digits.isEmpty() || digits.length() > 17 || !digits.chars().allMatch(Character::isDigit)) {
      throw SluiceException.badConfig(key, v, "an instant time: yyyyMMddHHmmssSSS (or yyyy-MM-dd HH:mm:ss.SSS)");
    }
    return Optional.of(digits);
  }

  /** The table, opened with the engine's options (on the driver or in a task). */
  Table open() {
    return Tables.open(path, Config.of(engineOptions));
  }

  /** The engine scan of this query type, range and instant on {@code table}. */
  Scan scan(Table table) {
    Scan s = table.newScan();
    if (queryType == QueryType.INCREMENTAL) {
      return end.isEmpty() ? s.incremental(begin) : s.incremental(begin, end);
    }
    s = s.queryType(queryType);
    return asOfTime.isEmpty() ? s : s.asOf(asOfTime);
  }
}
