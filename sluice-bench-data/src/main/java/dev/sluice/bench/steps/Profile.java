package dev.sluice.bench.steps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.Optional;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * A JFR recording (the JDK's "profile" settings, Java stacks sampled every millisecond) of one measured span, dumped
 * to a file when it stops.
 */
final class Profile {
  private final Recording recording;
  private final Path file;

  private Profile(Recording recording, Path file) {
    this.recording = recording;
    this.file = file;
  }

  /** Starts a recording if the system property {@code property} names a folder. */
  static Optional<Profile> start(String property, String name) {
    String dir = System.getProperty(property);
    if (dir == null || dir.isBlank()) {
      return Optional.empty();
    }
    try {
      Files.createDirectories(Path.of(dir));
      Recording r = new Recording(Configuration.getConfiguration("profile"));
      // the settings' 10-20 ms sampling gives a 1-second step a hundred samples: too few to rank its hot paths
      r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
      r.setName(name);
      r.setToDisk(true);
      r.start();
      return Optional.of(new Profile(r, Path.of(dir, name.replaceAll("[^A-Za-z0-9._-]", "_") + ".jfr")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a JFR recording in " + dir, e);
    } catch (ParseException e) {
      throw new IllegalStateException("the JDK's JFR profile settings do not parse", e);
    }
  }

  void stop() {
    try {
      recording.stop();
      recording.dump(file);
      recording.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
