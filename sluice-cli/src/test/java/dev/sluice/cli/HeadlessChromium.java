package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Chromium run headless as a child process, for the tests of {@code sluice report}. Missing, it is installed
 * by the project's own {@code bin/install-test-browser}; when that fails the tests are skipped, except where the
 * browser is required ({@code SLUICE_REQUIRE_BROWSER=1}, set by {@code .ci/run}, or {@code -Dsluice.require.browser}):
 * there they fail.
 */
final class HeadlessChromium {
  static final Path BINARY = Path.of("/usr/bin/chromium");
  private static final long TIMEOUT_SECONDS = 90;
  // no network, no background services, a throw-away profile per run: the page alone is under test
  private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--hide-scrollbars");

  private final Path work;

  private HeadlessChromium(Path work) {
    this.work = work;
  }

  /** The browser, installing it first if needed; skips (or, where required, fails) the test when there is none. */
  static HeadlessChromium require(Path work) throws IOException, InterruptedException {
    if (!Files.isExecutable(BINARY)) {
      Path script = repoRoot().resolve("bin/install-test-browser");
      Path log = work.resolve("install-test-browser.log");
      Process p = new ProcessBuilder(script.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean done = p.waitFor(15, TimeUnit.MINUTES);
      if (!done) {
        p.destroyForcibly();
      }
      if (!done || p.exitValue() != 0 || !Files.isExecutable(BINARY)) {
        String why = "no " + BINARY + " and " + script + " could not install it:\n" + Files.readString(log);
        if (required()) {
          fail(why);
        }
        Assumptions.abort(why);
      }
    }
    return new HeadlessChromium(work);
  }

  static boolean required() {
    return "1".equals(System.getenv("SLUICE_REQUIRE_BROWSER")) || Boolean.getBoolean("sluice.require.browser");
  }

  /** The repository's root: the parent of the module the tests run in. */
  static Path repoRoot() {
    Path here = Path.of("").toAbsolutePath();
    return Files.isDirectory(here.resolve("bin")) ? here : here.getParent();
  }

  /** The DOM after the page's scripts ran and it loaded, serialized ({@code --dump-dom}). */
  String dumpDom(Path html) throws IOException, InterruptedException {
    return run(List.of("--dump-dom", html.toUri().toString()), "dom");
  }

  /** A PNG of the page's top {@code width × height} pixels. */
  void screenshot(Path html, Path png, int width, int height) throws IOException, InterruptedException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    Files.deleteIfExists(png);
    run(List.of("--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(), html.toUri().toString()),
        "screenshot");
    assertTrue(Files.size(png) > 10_000, "screenshot " + png + " is " + Files.size(png) + " bytes");
  }

  private String run(List<String> args, String what) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(work, "chromium-profile");
    Path out = work.resolve(what + ".out");
    Path err = work.resolve(what + ".err");
    List<String> cmd = new ArrayList<>();
    cmd.add(BINARY.toString());
    cmd.addAll(FLAGS);
    cmd.add("--user-data-dir=" + profile);
    cmd.addAll(args);
    // the profile stays in the test's temporary folder, which JUnit deletes
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      fail("chromium " + what + " did not finish in " + TIMEOUT_SECONDS + " s: " + Files.readString(err));
    }
    assertEquals(0, p.exitValue(), "chromium " + what + " failed: " + Files.readString(err));
    return Files.readString(out, StandardCharsets.UTF_8);
  }
}
