package dev.sluice.oracle;

import java.io.IOException;
import java.io.PrintStream;

/** {@code batch}: the shared {@link BatchScript} running this oracle's commands. */
final class BatchCommand {

  private BatchCommand() {
  }

  static int run(Args args, PrintStream out, PrintStream err) throws IOException {
    return BatchScript.run(args, out, err, Oracle::run);
  }
}
