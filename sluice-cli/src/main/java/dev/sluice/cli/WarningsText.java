package dev.sluice.cli;

import dev.sluice.tools.health.Warning;
import java.io.PrintWriter;
import java.util.List;

/** The health warnings as text, after a command's listing. */
final class WarningsText {
  private WarningsText() {
  }

  static void print(PrintWriter out, List<Warning> warnings) {
    if (warnings.isEmpty()) {
      out.println("no health warnings");
      return;
    }
    out.printf("%d health warning%s:%n", warnings.size(), warnings.size() == 1 ? "" : "s");
    for (Warning w : warnings) {
      out.printf("  WARNING %s: %s%n", w.code(), w.message());
    }
  }
}
