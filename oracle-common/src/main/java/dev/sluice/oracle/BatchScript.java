package dev.sluice.oracle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code batch --script FILE}, shared by both oracles: runs several commands in one JVM (start-up dominates a call's
 * cost). The script has one command per line as a JSON array of strings; the output is, per command, a line
 * {@code #batch <index> <status>} followed by that command's own output. Every command runs even if an earlier one
 * fails; the batch's status is 1 if any failed.
 */
final class BatchScript {

  /** Starts each command's section of the output. */
  static final String MARKER = "#batch";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One oracle command: its arguments, its output stream and its diagnostics stream; returns the exit status. */
  interface Runner {
    int run(List<String> args, PrintStream out, PrintStream err);
  }

  private BatchScript() {
  }

  static int run(Args args, PrintStream out, PrintStream err, Runner runner) throws IOException {
    List<List<String>> commands = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args.required("script")), StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode node = JSON.readTree(line);
      if (!node.isArray()) {
        throw new Args.UsageException("batch script lines must be JSON arrays of strings: " + line);
      }
      List<String> command = new ArrayList<>();
      node.forEach(arg -> command.add(arg.asText()));
      if (!command.isEmpty() && (command.get(0).equals("batch") || command.get(0).equals("warmup"))) {
        throw new Args.UsageException("a batch cannot run " + command.get(0));
      }
      commands.add(command);
    }
    int failed = 0;
    for (int i = 0; i < commands.size(); i++) {
      ByteArrayOutputStream buffer = new ByteArrayOutputStream();
      int status;
      try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
        status = runner.run(commands.get(i), capture, err);
      }
      out.println(MARKER + " " + i + " " + status);
      out.print(buffer.toString(StandardCharsets.UTF_8));
      if (status != 0) {
        failed++;
      }
    }
    out.flush();
    return failed == 0 ? 0 : 1;
  }
}
