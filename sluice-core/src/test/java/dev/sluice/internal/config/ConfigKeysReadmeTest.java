package dev.sluice.internal.config;

import dev.sluice.api.ConfigKey;
import dev.sluice.api.ConfigKeys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The configuration table of docs/configuration.md lists every key of {@link ConfigKeys}, and only those. */
class ConfigKeysReadmeTest {
  @Test
  void everyKeyHasARowInTheReadmeTable() throws IOException {
    // tests run in the module directory; the docs are the repository's
    Path readme = Path.of("..", "docs", "configuration.md");
    assertTrue(Files.exists(readme), readme.toAbsolutePath().toString());
    Set<String> rows = new HashSet<>();
    for (String line : Files.readAllLines(readme)) {
      if (line.startsWith("| `hoodie.") || line.startsWith("| `sluice.")) {
        rows.add(line.substring(3, line.indexOf('`', 3)));
      }
    }
    List<String> missing = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (ConfigKey<?> key : ConfigKeys.all()) {
      names.add(key.name());
      if (!rows.contains(key.name())) {
        missing.add(key.name());
      }
    }
    assertEquals(List.of(), missing, "keys without a row in docs/configuration.md");
    rows.removeAll(names);
    assertEquals(Set.of(), rows, "rows of docs/configuration.md without a key");
  }
}
