package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.util.Locale;

/** The formats query results can be written in ({@link RecordFormatter#create}). */
public enum OutputFormat {
  /** JSON Lines, readable again as {@link InputFormat#JSON} ({@link JsonRecordWriter}). */
  JSONL,
  /** CSV with a header, readable again as {@link InputFormat#CSV} ({@link CsvRecordWriter}). */
  CSV,
  /** An aligned text table for people ({@link TableRenderer}). */
  TABLE;

  /**
   * Parses a format name as given on the command line: {@code jsonl} (or {@code json}), {@code csv}, {@code table}.
   *
   * @throws dev.sluice.api.SluiceException (BAD_CONFIG) for any other name
   */
  public static OutputFormat parse(String name) {
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "jsonl":
      case "json":
        return JSONL;
      case "csv":
        return CSV;
      case "table":
        return TABLE;
      default:
        throw SluiceException.badRequest("Unknown output format '" + name + "'", null, "Use one of jsonl, csv, table.");
    }
  }
}
