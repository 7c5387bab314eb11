package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The CLI bench's check that the queries' rows really go nowhere. */
@DisabledOnOs(OS.WINDOWS)
class CliBenchNullDeviceTest {

  @Test
  void aRegularFileInPlaceOfTheNullDeviceIsNamedInAWarning(@TempDir Path dir) throws java.io.IOException {
    Path fake = Files.writeString(dir.resolve("null"), "");
    Optional<String> warning = CliBench.nullDeviceWarning(fake);
    assertTrue(warning.isPresent(), "a regular file is not a null device");
    assertTrue(warning.get().contains(fake + " is not a character device"), warning.get());
  }

  @Test
  void aCharacterDeviceGivesNoWarning() throws java.io.IOException {
    // /dev/zero: a character device every Linux and macOS has, whatever became of /dev/null
    assertEquals(Optional.empty(), CliBench.nullDeviceWarning(Path.of("/dev/zero")));
  }
}
