package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.util.Locale;

/** The formats of input files that {@link RecordSources} reads. */
public enum InputFormat {
  /** JSON Lines: one plain JSON object per line. */
  JSON,
  /** Comma-separated values with a header line (RFC 4180). */
  CSV,
  /** An Avro object container file. */
  AVRO,
  /** A Parquet file. */
  PARQUET;

  /**
   * The format a file name's extension implies: {@code .json}, {@code .jsonl}, {@code .ndjson}, {@code .csv},
   * {@code .avro}, {@code .parquet} (any case).
   *
   * @throws dev.sluice.api.SluiceException (BAD_CONFIG) for any other name
   */
  public static InputFormat fromFileName(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".json") || name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return JSON;
    }
    if (name.endsWith(".csv")) {
      return CSV;
    }
    if (name.endsWith(".avro")) {
      return AVRO;
    }
    if (name.endsWith(".parquet")) {
      return PARQUET;
    }
    throw SluiceException.badRequest("Cannot tell the format of input file " + fileName,
        "its extension is not .json, .jsonl, .ndjson, .csv, .avro or .parquet",
        "Name the format explicitly (json, csv, avro or parquet).");
  }

  /**
   * Parses a format name as given on the command line: {@code json} (or {@code jsonl}), {@code csv}, {@code avro},
   * {@code parquet}, in any case.
   *
   * @throws dev.sluice.api.SluiceException (BAD_CONFIG) for any other name
   */
  public static InputFormat parse(String name) {
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "json":
      case "jsonl":
        return JSON;
      case "csv":
        return CSV;
      case "avro":
        return AVRO;
      case "parquet":
        return PARQUET;
      default:
        throw SluiceException.badRequest("Unknown input format '" + name + "'", null, "Use one of json, jsonl, csv, avro, parquet.");
    }
  }
}
