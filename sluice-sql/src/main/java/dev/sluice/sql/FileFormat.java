package dev.sluice.sql;

import dev.sluice.api.SluiceException;
import java.util.Locale;

/** Files a result or an export is written as. */
public enum FileFormat {
  /** Parquet (written by DuckDB), readable by DuckDB, pyarrow, Spark and the rest. */
  PARQUET(".parquet"),
  /** An Arrow IPC file (the "Feather v2" format). */
  ARROW(".arrow");

  private final String extension;

  FileFormat(String extension) {
    this.extension = extension;
  }

  /** The file name extension, with its dot. */
  public String extension() {
    return extension;
  }

  /** {@code parquet} or {@code arrow} (also {@code feather}, {@code ipc}). */
  public static FileFormat parse(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "parquet" -> PARQUET;
      case "arrow", "feather", "ipc" -> ARROW;
      default -> throw SluiceException.badInput("--format " + name, null, "unknown file format", "parquet or arrow");
    };
  }

  /** The format a file name's extension names, if any. */
  public static java.util.Optional<FileFormat> ofFileName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".parquet")) {
      return java.util.Optional.of(PARQUET);
    }
    if (n.endsWith(".arrow") || n.endsWith(".feather") || n.endsWith(".ipc")) {
      return java.util.Optional.of(ARROW);
    }
    return java.util.Optional.empty();
  }
}
