package dev.sluice.cli;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

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
    return Config.of(m);
  }
}
