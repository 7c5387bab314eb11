package dev.sluice.sql;

import dev.sluice.api.SluiceException;
import java.util.Locale;

/** How result rows are printed. */
public enum OutputFormat {
  /** Columns aligned under a header, with a row count line. */
  TABLE,
  /** RFC 4180 CSV with a header line. */
  CSV,
  /** One JSON object per row. */
  JSONL;

  /** {@code table}, {@code csv} or {@code jsonl} (also {@code json}). */
  public static OutputFormat parse(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "table" -> TABLE;
      case "csv" -> CSV;
      case "jsonl", "json" -> JSONL;
      default -> throw SluiceException.badInput("--format " + name, null, "unknown output format",
          "table, csv or jsonl (or --output FILE with .parquet or .arrow)");
    };
  }
}
