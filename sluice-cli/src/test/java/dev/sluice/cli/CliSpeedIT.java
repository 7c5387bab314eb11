package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.tools.records.CsvRecordWriter;
import dev.sluice.tools.records.JsonRecordWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's own speed, through the real launcher: its class-data sharing archive (made on a command's
 * first run, used after, a damaged or foreign one ignored) and the streamed query output, which must be the same
 * bytes the per-row formatting wrote before.
 */
class CliSpeedIT {
  private static final String COLUMNS = "id string, ts long, city string, note string, fare decimal(10,2), "
      + "at timestamp, day date, tags array<string>, attrs map<string,long>, raw bytes";

  @TempDir
  Path dir;

  record Result(int exit, byte[] out, String err) {
    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }
  }

  private Result sluice(Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(BinSluiceIT.repoRoot().resolve("bin/sluice").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("SLUICE_CACHE_DIR", dir.resolve("cache").toString());
    pb.environment().putAll(env);
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("bin/sluice " + String.join(" ", args) + " timed out");
    }
    return new Result(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
  }

  private List<Path> archives() throws IOException {
    return archives(".jsa");
  }

  private List<Path> archives(String suffix) throws IOException {
    Path cds = dir.resolve("cache/cds");
    if (!Files.isDirectory(cds)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(cds)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /** A JDK of version 25 or later on this machine (SLUICE_TEST_JDK25, else one under /usr/lib/jvm), if any. */
  static Optional<Path> jdk25() throws IOException {
    String given = System.getenv("SLUICE_TEST_JDK25");
    if (given != null && !given.isBlank()) {
      return Optional.of(Path.of(given));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(jvms)) {
      return s.filter(h -> Files.isExecutable(h.resolve("bin/java")) && majorVersion(h.resolve("release")) >= 25)
          .sorted().findFirst();
    }
  }

  private static int majorVersion(Path release) {
    try {
      Matcher m = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)").matcher(Files.readString(release));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** The Sluice classes a run loaded from a static archive (the JDK's ahead-of-time cache), from its class-load log. */
  private static long cachedClasses(Path log) throws IOException {
    try (Stream<String> lines = Files.lines(log)) {
      return lines.filter(l -> l.contains("dev.sluice.") && l.endsWith("source: shared objects file")).count();
    }
  }

  /** The Sluice classes a run loaded from the dynamic archive, from its class-load log. */
  private static long sharedClasses(Path log) throws IOException {
    return sharedClasses(log, "dev.sluice.");
  }

  /** The classes of a package prefix a run loaded from the dynamic archive, from its class-load log. */
  private static long sharedClasses(Path log, String prefix) throws IOException {
    try (Stream<String> lines = Files.lines(log)) {
      return lines.filter(l -> l.contains("] " + prefix) && l.contains("source: shared objects file (top)")).count();
    }
  }

  @Test
  void archiveMadeOnFirstRunUsedOnSecondAndDamagedOnesIgnored() throws IOException, InterruptedException {
    Path log = dir.resolve("classes.log");
    Map<String, String> env = Map.of("SLUICE_JAVA_OPTS", "-XX:+UseSerialGC -Xlog:class+load=info:file=" + log);
    assertTrue(archives().isEmpty());

    Result first = sluice(env, "--version");
    assertEquals(0, first.exit(), first.err());
    assertEquals("sluice 0.1.0\n", first.text());
    List<Path> made = archives();
    assertEquals(1, made.size(), "one archive, of the 'other' kind: " + made);
    Path archive = made.get(0);
    assertTrue(archive.getFileName().toString().startsWith("other-"), archive.toString());
    assertEquals(Files.size(archive), Long.parseLong(Files.readString(Path.of(archive + ".size")).trim()));
    assertEquals(0, sharedClasses(log), "the first run loads its classes from the jars");

    Result second = sluice(env, "--version");
    assertEquals(0, second.exit(), second.err());
    assertEquals("sluice 0.1.0\n", second.text());
    assertTrue(sharedClasses(log) > 10, "the second run maps Sluice's classes from the archive");
    // picocli's own jar is compiled for Java 5, which class-data sharing does not archive: bin/sluice runs on the
    // build's copy raised to Java 8 (ArchivableJars), whose classes come from the archive like Sluice's
    assertTrue(sharedClasses(log, "picocli.") > 10, "the second run maps picocli's classes from the archive");
    assertEquals(List.of(archive), archives());

    // the same size but not an archive: the JVM's header and CRC checks refuse it, the command runs as usual
    byte[] garbage = new byte[(int) Files.size(archive)];
    java.util.Arrays.fill(garbage, (byte) 0x5a);
    Files.write(archive, garbage);
    Result damaged = sluice(env, "--version");
    assertEquals(0, damaged.exit(), damaged.err());
    assertEquals("sluice 0.1.0\n", damaged.text());
    assertEquals("", damaged.err());
    assertEquals(0, sharedClasses(log));

    // cut short (a full disk, a copy interrupted): mapping it would crash the JVM, so the launcher drops it and
    // makes a new one
    Files.write(archive, java.util.Arrays.copyOf(garbage, garbage.length / 2));
    Result truncated = sluice(env, "--version");
    assertEquals(0, truncated.exit(), truncated.err());
    assertEquals("sluice 0.1.0\n", truncated.text());
    Result again = sluice(env, "--version");
    assertEquals(0, again.exit(), again.err());
    assertTrue(sharedClasses(log) > 10, "the archive made again is used");

    // an archive of another class path and JVM options in this one's place (as after a rebuilt jar): ignored
    Map<String, String> otherOpts = Map.of("SLUICE_JAVA_OPTS", "-XX:+UseParallelGC");
    assertEquals(0, sluice(otherOpts, "--version").exit());
    Path foreign = archives().stream().filter(p -> !p.equals(archive)).findFirst().orElseThrow();
    Files.copy(foreign, archive, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(Path.of(archive + ".size"), Long.toString(Files.size(archive)));
    Result stale = sluice(env, "--version");
    assertEquals(0, stale.exit(), stale.err());
    assertEquals("sluice 0.1.0\n", stale.text());

    // turned off: no archive is read or made
    Path off = dir.resolve("cache");
    Result disabled = sluice(Map.of("SLUICE_CDS", "off", "SLUICE_CACHE_DIR", off.resolve("off").toString()),
        "--version");
    assertEquals(0, disabled.exit(), disabled.err());
    assertTrue(Files.notExists(off.resolve("off")));
  }

  /**
   * On JDK 25 and later the launcher makes the JDK's ahead-of-time cache instead of an AppCDS archive: recorded by
   * a command's first run (whose output must still be only the command's: the JVM announces the recording on
   * standard output unless told not to), used by the next, and a damaged one ignored.
   */
  /** On JDK 25 and later the launcher turns compact object headers on (a product option there); JDK 17 lacks it. */
  @Test
  void compactObjectHeadersOnJdk25Only() throws IOException, InterruptedException {
    Optional<Path> jdk = jdk25();
    Assumptions.assumeTrue(jdk.isPresent(), "no JDK 25 or later under /usr/lib/jvm and SLUICE_TEST_JDK25 unset");
    String flags = "-XX:+UseParallelGC -XX:+PrintCommandLineFlags";
    Map<String, String> env = Map.of("JAVA_HOME", jdk.get().toString(), "SLUICE_JAVA_OPTS", flags);
    // the first run records the ahead-of-time cache with the JVM's own output off; the second prints its flags
    assertEquals(0, sluice(env, "--version").exit());
    Result on25 = sluice(env, "--version");
    assertEquals(0, on25.exit(), on25.err());
    assertTrue(on25.text().contains("-XX:+UseCompactObjectHeaders"), on25.text());
    // JDK 17 would refuse to start with the option (an unrecognised VM option): every other test of bin/sluice on
    // the default JDK shows it is not given there
    assertTrue(on25.text().contains("sluice 0.1.0"), on25.text());
  }

  /**
   * snappy-java's native library is copied once into the launcher's cache and loaded from there, not copied to a new
   * temporary file by every command; a copy cut short is made again; a user's own snappy-java setting wins.
   */
  @Test
  void snappyNativeLibraryLoadedFromTheCache() throws IOException, InterruptedException {
    String t = dir.resolve("t").toString();
    assertEquals(0, sluice(Map.of(), "create", t, "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long").exit());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"a\",\"ts\":1}\n{\"id\":\"b\",\"ts\":2}\n");
    assertEquals(0, sluice(Map.of(), "insert", t, in.toString()).exit());
    Path cached;
    try (Stream<Path> s = Files.walk(dir.resolve("cache/native"))) {
      List<Path> libs = s.filter(Files::isRegularFile).toList();
      assertEquals(1, libs.size(), libs.toString());
      cached = libs.get(0);
    }
    String resource = "/org/xerial/snappy/native/" + org.xerial.snappy.OSInfo.getNativeLibFolderPathForCurrentOS()
        + "/" + System.mapLibraryName("snappyjava");
    byte[] original;
    try (java.io.InputStream lib = org.xerial.snappy.OSInfo.class.getResourceAsStream(resource)) {
      original = lib.readAllBytes();
    }
    assertArrayEquals(original, Files.readAllBytes(cached), "the cache holds the jar's library");

    Path log = dir.resolve("library.log");
    Map<String, String> env = Map.of("SLUICE_JAVA_OPTS", "-XX:+UseParallelGC -Xlog:library=info:file=" + log);
    // twice: the first run of a kind records its class-data archive, the second maps it; both load from the cache
    for (int i = 0; i < 2; i++) {
      Result q = sluice(env, "query", t, "--format", "csv");
      assertEquals(0, q.exit(), q.err());
      assertEquals("id,ts\na,1\nb,2\n", q.text());
      String loaded = Files.readString(log);
      assertTrue(loaded.contains("Loaded library " + cached), loaded);
      assertFalse(loaded.matches("(?s).*Loaded library \\S*snappy-1[^\\s]*libsnappyjava.*"), loaded);
    }

    // cut short (a disk that filled up under another tool): copied again from the jar before it is loaded
    Files.write(cached, java.util.Arrays.copyOf(original, original.length / 2));
    Result again = sluice(env, "query", t, "--format", "csv");
    assertEquals(0, again.exit(), again.err());
    assertArrayEquals(original, Files.readAllBytes(cached));
    assertTrue(Files.readString(log).contains("Loaded library " + cached));

    // snappy-java's own setting, given by the user, is left alone: it copies to the folder it names, as it always did
    Path tmp = Files.createDirectories(dir.resolve("snappy-tmp"));
    Result own = sluice(Map.of("SLUICE_JAVA_OPTS", "-XX:+UseParallelGC -Dorg.xerial.snappy.tempdir=" + tmp
        + " -Dorg.xerial.snappy.lib.name=libsnappyjava.so -Xlog:library=info:file=" + log), "query", t, "--format", "csv");
    assertEquals(0, own.exit(), own.err());
    String loaded = Files.readString(log);
    assertTrue(loaded.contains("Loaded library " + tmp.toRealPath()) || loaded.contains("Loaded library " + tmp),
        loaded);
    assertFalse(loaded.contains("Loaded library " + cached), loaded);
  }

  /**
   * A query keeps both compilers on JDK 25 and later (its ahead-of-time cache holds the methods' profiles, so C2
   * starts early) and runs on C1 alone before that; an upsert runs on C1 alone on both.
   */
  @Test
  void queryKeepsC2OnJdk25UpsertStaysOnC1() throws IOException, InterruptedException {
    Optional<Path> jdk = jdk25();
    Assumptions.assumeTrue(jdk.isPresent(), "no JDK 25 or later under /usr/lib/jvm and SLUICE_TEST_JDK25 unset");
    String t = dir.resolve("t").toString();
    assertEquals(0, sluice(Map.of(), "create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long").exit());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"a\",\"ts\":1}\n");
    assertEquals(0, sluice(Map.of(), "insert", t, in.toString()).exit());
    String flags = "-XX:+UseParallelGC -XX:+PrintCommandLineFlags";
    Path ownJdk = Path.of(System.getProperty("java.home"));
    if (majorVersion(ownJdk.resolve("release")) < 25) {
      Result older = sluice(Map.of("JAVA_HOME", ownJdk.toString(), "SLUICE_JAVA_OPTS", flags), "query", t);
      assertEquals(0, older.exit(), older.err());
      assertTrue(older.text().contains("-XX:TieredStopAtLevel=1"), older.text());
    }
    Map<String, String> env = Map.of("JAVA_HOME", jdk.get().toString(), "SLUICE_JAVA_OPTS", flags);
    // each kind's first run records its cache with the JVM's own output off; the second prints its flags
    for (String[] args : List.of(new String[] {"query", t}, new String[] {"upsert", t, in.toString()})) {
      assertEquals(0, sluice(env, args).exit());
    }
    Result query = sluice(env, "query", t);
    assertEquals(0, query.exit(), query.err());
    assertTrue(query.text().contains("-XX:+UseCompactObjectHeaders") && query.text().contains("{\"id\":\"a\""),
        query.text());
    assertFalse(query.text().contains("TieredStopAtLevel"), query.text());
    // both compilers, for the query's hotter methods only
    assertTrue(query.text().contains("-XX:CompileThresholdScaling=4"), query.text());
    // a second C2 thread where the JVM would give its compilers two threads in all (two or three processors)
    String cpus = new String(new ProcessBuilder("nproc").start().getInputStream().readAllBytes()).trim();
    assertEquals(cpus.equals("2") || cpus.equals("3"), query.text().contains("-XX:CICompilerCount=3"), query.text());
    // a young generation of a fixed 256 MB, on a machine with the memory for it
    long memory = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getTotalMemorySize();
    String young = "-XX:MaxNewSize=268435456";
    assertEquals(memory >= 2L << 30, query.text().contains(young), query.text());
    assertEquals(memory >= 2L << 30, query.text().contains("-XX:MaxTenuringThreshold=1"), query.text());
    Result upsert = sluice(env, "upsert", t, in.toString());
    assertEquals(0, upsert.exit(), upsert.err());
    assertTrue(upsert.text().contains("-XX:TieredStopAtLevel=1"), upsert.text());
    assertFalse(upsert.text().contains("CICompilerCount"), upsert.text());
    assertFalse(upsert.text().contains(young) || upsert.text().contains("MaxTenuringThreshold=1"), upsert.text());
    // a heap the user sized is left as given: no fixed young generation, and no warning about one
    Map<String, String> sized = Map.of("JAVA_HOME", jdk.get().toString(), "SLUICE_JAVA_OPTS", flags + " -Xmx300m");
    assertEquals(0, sluice(sized, "query", t).exit());
    Result own = sluice(sized, "query", t);
    assertEquals(0, own.exit(), own.err());
    assertTrue(own.text().contains("-XX:MaxHeapSize=314572800"), own.text());
    assertFalse(own.text().contains(young) || own.text().contains("MaxTenuringThreshold=1"), own.text());
    assertFalse(own.err().contains("warning"), own.err());
  }

  @Test
  void aheadOfTimeCacheOnJdk25MadeOnFirstRunUsedOnSecond() throws IOException, InterruptedException {
    Optional<Path> jdk = jdk25();
    Assumptions.assumeTrue(jdk.isPresent(), "no JDK 25 or later under /usr/lib/jvm and SLUICE_TEST_JDK25 unset");
    String t = dir.resolve("t").toString();
    assertEquals(0, sluice(Map.of(), "create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, note string").exit());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"a\",\"ts\":1,\"city\":\"oslo\",\"note\":\"caf\u00e9, \\\"x\\\"\"}\n"
        + "{\"id\":\"b\",\"ts\":2,\"city\":\"rome\",\"note\":null}\n");
    assertEquals(0, sluice(Map.of(), "insert", t, in.toString()).exit());
    Result reference = sluice(Map.of(), "query", t, "--format", "csv");
    assertEquals(0, reference.exit(), reference.err());
    assertTrue(reference.text().contains("caf\u00e9"), reference.text());

    // one class-load log per JVM (%p: its process id): the first run starts two, the command recording and the
    // JVM that assembles the cache from the record
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Map<String, String> env = Map.of("JAVA_HOME", jdk.get().toString(),
        "SLUICE_JAVA_OPTS", "-XX:+UseParallelGC -Xlog:class+load=info:file=" + logs + "/%p.log");
    assertTrue(archives(".aot").isEmpty());
    Result first = sluice(env, "query", t, "--format", "csv");
    assertEquals(0, first.exit(), first.err());
    assertEquals("", first.err());
    assertArrayEquals(reference.out(), first.out(), "the recording run writes the rows and nothing else");
    List<Path> made = archives(".aot");
    assertEquals(1, made.size(), "one ahead-of-time cache, of the query kind: " + made);
    Path cache = made.get(0);
    assertTrue(cache.getFileName().toString().startsWith("query-"), cache.toString());
    assertEquals(Files.size(cache), Long.parseLong(Files.readString(Path.of(cache + ".size")).trim()));
    assertEquals(List.of(), archives(".tmp"), "no record or half-made cache left behind");
    List<Path> firstLogs = newLogs(logs, List.of());
    Path commandLog = firstLogs.stream().filter(CliSpeedIT::mainFromJar).findFirst().orElseThrow();
    assertEquals(0, cachedClasses(commandLog), "the recording run loads Sluice's classes from the jars");

    Result second = sluice(env, "query", t, "--format", "csv");
    assertEquals(0, second.exit(), second.err());
    assertEquals("", second.err());
    assertArrayEquals(reference.out(), second.out());
    List<Path> secondLogs = newLogs(logs, firstLogs);
    assertEquals(1, secondLogs.size(), "one JVM: the cache is not made again " + secondLogs);
    assertTrue(cachedClasses(secondLogs.get(0)) > 100, "the second run maps Sluice's classes from the cache");
    assertEquals(List.of(cache), archives(".aot"));

    // the same size but not a cache: the JVM refuses it and runs the command as usual
    byte[] garbage = new byte[(int) Files.size(cache)];
    java.util.Arrays.fill(garbage, (byte) 0x5a);
    Files.write(cache, garbage);
    Result damaged = sluice(env, "query", t, "--format", "csv");
    assertEquals(0, damaged.exit(), damaged.err());
    assertEquals("", damaged.err());
    assertArrayEquals(reference.out(), damaged.out());
    List<Path> seen = new ArrayList<>(firstLogs);
    seen.addAll(secondLogs);
    List<Path> damagedLogs = newLogs(logs, seen);
    assertEquals(1, damagedLogs.size(), damagedLogs.toString());
    assertTrue(mainFromJar(damagedLogs.get(0)));
    assertEquals(0, cachedClasses(damagedLogs.get(0)));
  }

  private static List<Path> newLogs(Path logs, List<Path> seen) throws IOException {
    try (Stream<Path> s = Files.list(logs)) {
      return s.filter(p -> !seen.contains(p)).sorted().toList();
    }
  }

  /**
   * Whether the JVM of this log loaded the CLI's main class from its jar: the run that records does, the one that
   * assembles the cache from the record (it loads the recorded classes from its preliminary archive) does not.
   */
  private static boolean mainFromJar(Path log) {
    try (Stream<String> lines = Files.lines(log)) {
      return lines.anyMatch(l -> l.contains("dev.sluice.cli.Main source: file:"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Snappy base files (the default codec) are written and read without Hadoop: Parquet's own codec factory made
   * each codec through a Hadoop Configuration, which parsed Hadoop's default XML configuration and started the JVM's
   * management beans in every process (PageCodecs).
   */
  @Test
  void snappyBaseFilesAreWrittenAndReadWithoutAHadoopConfiguration() throws IOException, InterruptedException {
    String t = dir.resolve("t").toString();
    assertEquals(0, sluice(Map.of(), "create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, note string").exit());
    Path in = dir.resolve("in.jsonl");
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      rows.append("{\"id\":\"k").append(i).append("\",\"ts\":").append(i).append(",\"city\":\"c").append(i % 3)
          .append("\",\"note\":\"n").append(i).append("\"}\n");
    }
    Files.writeString(in, rows.toString());
    Path log = dir.resolve("classes.log");
    Map<String, String> env = Map.of("SLUICE_JAVA_OPTS", "-XX:+UseParallelGC -Xlog:class+load=info:file=" + log);
    for (List<String> command : List.of(List.of("insert", t, in.toString()), List.of("query", t, "--format", "csv"))) {
      Result r = sluice(env, command.toArray(new String[0]));
      assertEquals(0, r.exit(), r.err());
      try (Stream<String> lines = Files.lines(log)) {
        List<String> hadoop = lines.filter(l -> l.contains("] org.apache.hadoop.conf.Configuration ")
            || l.contains("] org.apache.hadoop.util.ReflectionUtils ")).toList();
        assertEquals(List.of(), hadoop, command.get(0) + " made a Hadoop Configuration");
      }
      if (command.get(0).equals("query")) {
        assertEquals(201, r.text().split("\n").length, "the header and every row");
      }
    }
  }

  @Test
  void queryOutputIsTheBytesThePerRowFormattingWrote() throws IOException, InterruptedException {
    String t = dir.resolve("t").toString();
    Map<String, String> env = Map.of();
    Result c = sluice(env, "create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts", "--partition-path",
        "city", "--columns", COLUMNS);
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    StringBuilder rows = new StringBuilder();
    String[] notes = {"plain", "comma, inside", "a \"quote\"", "line\nbreak", "", "unicode: \u00e9\u4e2d\ud83d\ude00",
        "tab\there", "\\backslash"};
    for (int i = 0; i < 400; i++) {
      String note = i % 9 == 8 ? "null" : "\"" + notes[i % notes.length].replace("\\", "\\\\").replace("\"", "\\\"")
          .replace("\n", "\\n").replace("\t", "\\t") + "\"";
      rows.append("{\"id\":\"k").append(i).append("\",\"ts\":").append(i).append(",\"city\":\"c").append(i % 3)
          .append("\",\"note\":").append(note).append(",\"fare\":").append(i % 5 == 0 ? "null" : i + ".25")
          .append(",\"at\":\"2024-01-").append(10 + i % 20).append("T10:15:30.123456Z\",\"day\":\"2024-02-0")
          .append(1 + i % 9).append("\",\"tags\":[\"a\",\"b,c\"],\"attrs\":{\"x\":").append(i)
          .append("},\"raw\":\"AAEC\"}\n");
    }
    Files.writeString(in, rows.toString());
    assertEquals(0, sluice(env, "insert", t, in.toString()).exit());
    // an upsert into a Merge-on-Read table: the rows come out of the merge of base and log files
    Files.writeString(in, rows.toString().replace("\"ts\":1", "\"ts\":9991"));
    Result up = sluice(env, "upsert", t, in.toString());
    assertEquals(0, up.exit(), up.err());

    Result jsonl = sluice(env, "query", t);
    Result csv = sluice(env, "query", t, "--format", "csv");
    Result keys = sluice(env, "query", t, "--columns", "id,note", "--format", "csv");
    assertEquals(0, jsonl.exit(), jsonl.err());
    assertEquals(0, csv.exit(), csv.err());

    // what the command wrote before its formatter streamed: one String per row through JsonRecordWriter.toJson, CSV
    // through the CSV writer over a character stream - from the rows the API returns
    try (Table table = Tables.open(t, Config.empty())) {
      assertArrayEquals(perRowJson(table, List.of()), jsonl.out(), "JSON Lines");
      assertArrayEquals(perRowCsv(table, List.of()), csv.out(), "CSV");
      assertArrayEquals(perRowCsv(table, List.of("id", "note")), keys.out(), "CSV of two columns");
    }
    assertTrue(jsonl.text().contains("\u4e2d\ud83d\ude00") && jsonl.text().split("\n").length == 400, jsonl.text());

    // the in-process path (writers only) writes the same text
    CliTest.Run inProcess = CliTest.run("query", t);
    assertEquals(jsonl.text(), inProcess.out());
  }

  private static byte[] perRowJson(Table table, List<String> columns) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CloseableIterator<GenericRecord> rows = (columns.isEmpty() ? table.newScan() : table.newScan().select(columns))
        .open()) {
      while (rows.hasNext()) {
        out.writeBytes((JsonRecordWriter.toJson(rows.next()) + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    return out.toByteArray();
  }

  private static byte[] perRowCsv(Table table, List<String> columns) throws IOException {
    var scan = columns.isEmpty() ? table.newScan() : table.newScan().select(columns);
    Schema schema = scan.schema();
    StringWriter text = new StringWriter();
    CsvRecordWriter w = new CsvRecordWriter(text, schema);
    try (CloseableIterator<GenericRecord> rows = scan.open()) {
      while (rows.hasNext()) {
        w.write(rows.next());
      }
    }
    w.close();
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
