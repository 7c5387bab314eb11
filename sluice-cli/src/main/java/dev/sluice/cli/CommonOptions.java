package dev.sluice.cli;

import dev.sluice.api.Config;
import dev.sluice.api.KnownKeys;
import dev.sluice.api.SluiceException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options every command takes: configuration and verbosity. */
final class CommonOptions {
  @Option(names = "--conf", paramLabel = "KEY=VALUE",
      description = "Set an option (repeatable), under Hudi's property name where Hudi has one, e.g. "
          + "hoodie.parquet.max.file.size=67108864, or a storage setting such as fs.s3a.endpoint=...")
  List<String> conf = List.of();

  @Option(names = "--config", paramLabel = "FILE", description = "A Java properties file of options; --conf wins over it.")
  Path configFile;

  @Option(names = "--verbose", description = "Print the stack trace of errors.")
  boolean verbose;

  @Option(names = "--strict-config", description = "Refuse options with an unknown hoodie.* or sluice.* key (exit 3) "
      + "instead of warning about them.")
  boolean strictConfig;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The options given, file first, then --conf. */
  Config config() {
    Map<String, String> m = new LinkedHashMap<>();
    if (configFile != null) {
      if (!Files.isRegularFile(configFile)) {
        throw SluiceException.badRequest("--config " + configFile, "the file does not exist", "Give a properties file.");
      }
      m.putAll(Config.load(configFile).asMap());
    }
    for (String kv : conf) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw SluiceException.badRequest("--conf " + kv, "it is not KEY=VALUE", "Write it as --conf hoodie.index.type=SIMPLE.");
      }
      m.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    Config config = Config.of(m);
    checkKeys(config);
    return config;
  }

  /**
   * Unknown hoodie.* and sluice.* keys: a warning line each on stderr, or with --strict-config a BAD_INPUT error
   * (exit 3) naming them all. A misspelt key would otherwise be ignored without a word.
   */
  private void checkKeys(Config config) {
    List<KnownKeys.Unknown> unknown = KnownKeys.unknown(config);
    if (unknown.isEmpty()) {
      return;
    }
    if (strictConfig) {
      throw SluiceException.badInput("the options (--conf, --config)", String.join("; ", unknown.stream()
          .map(KnownKeys.Unknown::describe).toList()) + ". --strict-config refuses unknown keys; correct or remove "
          + (unknown.size() == 1 ? "it" : "them"), null);
    }
    PrintWriter err = mixee == null ? new PrintWriter(System.err, true) : mixee.commandLine().getErr();
    for (KnownKeys.Unknown u : unknown) {
      err.println("warning: " + u.describe() + "; it is ignored (--strict-config refuses it)");
    }
    err.flush();
  }
}
