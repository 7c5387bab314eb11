package dev.sluice.spark.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.Config;
import dev.sluice.api.FileGroupInfo;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.spark.SluiceSpark;
import dev.sluice.spark.SparkCompactionResult;
import dev.sluice.spark.cluster.StandaloneCluster;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice on a real Spark cluster: a standalone Master and two Workers, each its own JVM on Spark's jars only, the
 * Workers on two loopback addresses (127.0.0.1 and 127.0.0.2: Spark never runs a speculative copy on the host of
 * the attempt it copies). Three applications run on it, one after the other, with the driver in this JVM and the
 * executors in the Workers' JVMs on Maven's class path (sluice-spark unshaded): a distributed insert, upsert,
 * compaction and read of a Merge-on-Read table; an upsert of which one task attempt dies mid-write; an insert and
 * upsert with speculation on and one attempt stalled. A fourth runs driver and executors with only Spark's jars and
 * the shaded bundle ({@link BundleDriver}). A fifth upserts while the test kills ({@code kill -9}) the executor
 * JVM of a write task mid-write; a sixth and seventh are {@code spark-submit} with the bundle in {@code --jars}
 * and from {@code --packages}. Every table is compared with the engine alone ({@link Table}) on the same input,
 * and every data file in it must be one a completed commit names (no file of a failed or duplicated attempt left).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkClusterIT {
  @TempDir
  static Path dir;
  private static StandaloneCluster cluster;
  private static List<Path> sparkJars;

  @BeforeAll
  static void startCluster() throws IOException {
    // Spark 3.5.7 and its dependencies at Spark's own versions (hudi-spark-oracle's list, without its own code)
    sparkJars = Arrays.stream(Files.readString(Path.of(System.getProperty("sluice.spark.classpath"))).trim()
            .split(":"))
        .map(Path::of)
        .filter(p -> !p.getFileName().toString().startsWith("oracle-common")
            && !p.getFileName().toString().startsWith("hive-exec"))
        .toList();
    cluster = StandaloneCluster.start(dir.resolve("cluster"), sparkJars, List.of("127.0.0.1", "127.0.0.2"), "1g");
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void upsertCompactionAndReadRunInTheWorkersExecutors() {
    TaskRecorder tasks = new TaskRecorder();
    SparkSession spark = session("sluice-cluster", Map.of());
    try {
      spark.sparkContext().addSparkListener(tasks);
      List<Long> pids = JavaSparkContext.fromSparkContext(spark.sparkContext())
          .parallelize(IntStream.range(0, 8).boxed().toList(), 8).map(SparkClusterIT::pidOfTask).collect();
      Set<Long> executors = new HashSet<>(pids);
      assertEquals(2, executors.size(), "two executor JVMs ran the tasks: " + pids);
      assertFalse(executors.contains(ProcessHandle.current().pid()), "no task ran in the driver's JVM");

      String path = dir.resolve("mor").toString();
      Map<String, String> options = BundleDriver.options("MERGE_ON_READ");
      SluiceSpark.insert(spark.createDataFrame(BundleDriver.firstBatch(), BundleDriver.ROWS), path, options);
      SluiceSpark.upsert(spark.createDataFrame(BundleDriver.secondBatch(), BundleDriver.ROWS), path, options);
      SparkCompactionResult compacted = SluiceSpark.compact(spark, path, Map.of("sluice.spark.compact.force", "true"));
      assertTrue(compacted.compaction().isPresent(), compacted.explanation());
      List<String> read = BundleDriver.lines(spark.read().format("sluice").load(path));

      List<String> expected = lines(engineTwin("mor-engine", TableType.MERGE_ON_READ));
      assertEquals(900, expected.size());
      assertEquals(expected, read, "format(\"sluice\") on the cluster reads the engine's rows");
      assertEquals(expected, lines(Tables.open(path)));
      assertEquals(List.of("deltacommit", "deltacommit", "commit"), completedActions(path));
      assertEveryDataFileIsCommitted(path);
      assertEquals(Set.of("127.0.0.1", "127.0.0.2"), tasks.hosts(), "tasks ran on both Workers' executors");
    } finally {
      spark.stop();
    }
  }

  @Test
  @Order(2)
  void aTaskAttemptThatDiesMidWriteLeavesNoFileAndTheWriteCommitsOnce() throws IOException {
    TaskRecorder tasks = new TaskRecorder();
    SparkSession spark = session("sluice-cluster-failure", Map.of());
    try {
      spark.sparkContext().addSparkListener(tasks);
      Path table = dir.resolve("killed");
      Map<String, String> options = BundleDriver.options("COPY_ON_WRITE");
      SluiceSpark.insert(spark.createDataFrame(BundleDriver.firstBatch(), BundleDriver.ROWS), table.toString(),
          options);
      // the same table through the faulty scheme: the first attempt of the first task that writes a base file (a
      // Copy-on-Write merge or a new file group) dies after the file's first bytes; Spark retries the task
      SluiceSpark.upsert(spark.createDataFrame(BundleDriver.secondBatch(), BundleDriver.ROWS),
          FaultyStorageProvider.FAIL + "://" + table, options);
      tasks.awaitAllEnded();
      Path died = Path.of(FaultyStorageProvider.local(Files.readString(dir.resolve("killed.fired"))));
      assertTrue(died.startsWith(table), died.toString());
      assertFalse(Files.exists(died), died + " of the attempt that died is left");
      assertTrue(tasks.failures().stream().anyMatch(f -> f.contains("injected fault")), "a task attempt failed "
          + "with the injected fault: " + tasks.failures());

      assertEquals(List.of("commit", "commit"), completedActions(table.toString()), "each write committed once");
      assertEveryDataFileIsCommitted(table.toString());
      assertEquals(lines(engineTwin("killed-engine", TableType.COPY_ON_WRITE)), lines(Tables.open(table.toString())));
    } finally {
      spark.stop();
    }
  }

  @Test
  @Order(3)
  void speculativeCopiesLeaveOneFilePerFileGroup() throws IOException {
    TaskRecorder tasks = new TaskRecorder();
    SparkSession spark = session("sluice-cluster-speculation", Map.of(
        "spark.speculation", "true",
        "spark.speculation.multiplier", "1",
        "spark.speculation.quantile", "0.1",
        "spark.speculation.interval", "100ms",
        "spark.speculation.minTaskRuntime", "100ms"));
    try {
      spark.sparkContext().addSparkListener(tasks);
      Path table = dir.resolve("speculated");
      String path = FaultyStorageProvider.SLOW + "://" + table;
      Map<String, String> options = BundleDriver.options("MERGE_ON_READ");
      // the first attempt of the first task that writes a base file stalls after the file's first bytes
      SluiceSpark.insert(spark.createDataFrame(BundleDriver.firstBatch(), BundleDriver.ROWS), path, options);
      SluiceSpark.upsert(spark.createDataFrame(BundleDriver.secondBatch(), BundleDriver.ROWS), path, options);
      tasks.awaitAllEnded();
      // the flag names the stalled attempt's file: gone (killed, then deleted at the commit), a copy won instead
      Path stalled = Path.of(FaultyStorageProvider.local(Files.readString(dir.resolve("speculated.fired"))));
      assertTrue(stalled.startsWith(table), stalled.toString());
      assertFalse(Files.exists(stalled), stalled + " of the stalled attempt is left");
      assertTrue(tasks.speculativeWins() > 0, "a speculative copy won; started: " + tasks.speculative());
      // its write token <task>-<stage>-<attempt id>: Spark killed that very attempt, and a copy of its task won
      long stalledAttempt = Long.parseLong(stalled.getFileName().toString().split("_")[1].split("-")[2]);
      assertTrue(tasks.lostToSpeculativeCopy(stalledAttempt), stalled + " by attempt " + stalledAttempt
          + "; killed attempts: " + tasks.killed());

      assertEquals(List.of("deltacommit", "deltacommit"), completedActions(table.toString()));
      assertEveryDataFileIsCommitted(table.toString());
      assertEquals(lines(engineTwin("speculated-engine", TableType.MERGE_ON_READ)),
          BundleDriver.lines(spark.read().format("sluice").load(path)));
    } finally {
      spark.stop();
    }
  }

  @Test
  @Order(4)
  void theBundleRunsOnSparksOwnClassPath() throws IOException, InterruptedException {
    Path bundle = Path.of(System.getProperty("sluice.spark.bundle"));
    assertTrue(Files.isRegularFile(bundle), bundle + " (run through Maven's verify: the bundle is built at package)");
    List<Path> jars = new ArrayList<>(sparkJars);
    jars.add(bundle);
    String classPath = StandaloneCluster.classPath(jars);
    Path table = dir.resolve("bundled");
    Path out = dir.resolve("bundled-rows.txt");
    List<String> cmd = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx512m", "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC"));
    cmd.addAll(StandaloneCluster.JAVA_17_OPENS);
    cmd.addAll(List.of("-cp", classPath, System.getProperty("sluice.spark.driver.source"), cluster.masterUrl(),
        table.toString(), out.toString(), classPath));
    Path log = dir.resolve("bundle-driver.log");
    Process driver = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertTrue(driver.waitFor(10, TimeUnit.MINUTES), "the driver did not end");
      assertEquals(0, driver.exitValue(), () -> StandaloneCluster.tail(read(log)));
    } finally {
      driver.descendants().forEach(ProcessHandle::destroyForcibly);
      driver.destroyForcibly();
    }

    List<String> expected = lines(engineTwin("bundled-engine", TableType.MERGE_ON_READ));
    assertEquals(expected, Files.readAllLines(out), "the bundle's read on the cluster gives the engine's rows");
    assertEquals(expected, lines(Tables.open(table.toString())), "the engine reads what the bundle wrote");
    assertEveryDataFileIsCommitted(table.toString());

    // each Worker ran one executor of the application, on Spark's jars and the bundle only
    String app = Files.readString(Path.of(out + ".app")).trim();
    List<Path> executorLogs = new ArrayList<>();
    for (String worker : List.of("worker-0-work", "worker-1-work")) {
      try (Stream<Path> s = Files.list(dir.resolve("cluster").resolve(worker).resolve(app))) {
        s.map(e -> e.resolve("stderr")).forEach(executorLogs::add);
      }
    }
    assertEquals(2, executorLogs.size(), executorLogs.toString());
    for (Path e : executorLogs) {
      String command = read(e).lines().filter(l -> l.startsWith("Spark Executor Command:")).findFirst().orElseThrow();
      assertTrue(command.contains(bundle.getFileName().toString()), command);
      assertFalse(command.contains("sluice-core") || command.contains("test-classes")
          || command.contains("sluice-spark/"), command);
    }
  }

  @Test
  @Order(5)
  void anExecutorKilledWithSigkillMidWriteIsReplacedAndTheWriteCommitsOnce()
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    TaskRecorder tasks = new TaskRecorder();
    SparkSession spark = session("sluice-cluster-kill", Map.of());
    ExecutorService background = Executors.newSingleThreadExecutor();
    try {
      spark.sparkContext().addSparkListener(tasks);
      Path table = dir.resolve("sigkilled");
      Map<String, String> options = BundleDriver.options("COPY_ON_WRITE");
      SluiceSpark.insert(spark.createDataFrame(BundleDriver.firstBatch(), BundleDriver.ROWS), table.toString(),
          options);
      // the first attempt of the first task that writes a base file publishes its JVM's pid and waits (killonce:)
      Future<?> upsert = background.submit(() -> SluiceSpark.upsert(
          spark.createDataFrame(BundleDriver.secondBatch(), BundleDriver.ROWS),
          FaultyStorageProvider.KILL + "://" + table, options));
      Path pidFile = dir.resolve("sigkilled.pid");
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (!Files.exists(pidFile)) {
        assertFalse(upsert.isDone(), "the upsert ended before a write task waited to be killed");
        assertTrue(System.nanoTime() < deadline, "no write task waited to be killed in 5 minutes");
        Thread.sleep(100);
      }
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      List<Long> executorPids = cluster.executors().stream().map(ProcessHandle::pid).toList();
      assertTrue(executorPids.contains(pid), "pid " + pid + " is a Worker's executor JVM: " + executorPids);
      assertFalse(pid == ProcessHandle.current().pid(), "the task ran in the driver's JVM");
      ProcessHandle executor = ProcessHandle.of(pid).orElseThrow();
      Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).inheritIO().start();
      assertEquals(0, kill.waitFor(), "kill -KILL " + pid);
      executor.onExit().get(1, TimeUnit.MINUTES);

      upsert.get(10, TimeUnit.MINUTES);
      tasks.awaitAllEnded();
      // the killed attempt failed with its executor; the Worker saw the executor exit and the Master gave the
      // application a new one on the same Worker (the listener came after the first two registered)
      assertEquals(1, tasks.lostWithExecutor().size(), "attempts lost with their executor: " + tasks.failures());
      String lost = tasks.lostWithExecutor().iterator().next();
      String lostId = lost.substring(0, lost.indexOf('@'));
      assertEquals(Set.of(lostId), tasks.executorsRemoved().keySet(), tasks.executorsRemoved().toString());
      long replaced = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (tasks.executorsAdded().isEmpty() && System.nanoTime() < replaced) {
        Thread.sleep(200);
      }
      assertEquals(1, tasks.executorsAdded().size(), "one new executor: " + tasks.executorsAdded());
      String added = tasks.executorsAdded().iterator().next();
      assertFalse(added.equals(lost), added);
      assertEquals(lost.substring(lost.indexOf('@')), added.substring(added.indexOf('@')),
          "the replacement " + added + " runs on the killed executor's Worker (" + lost + ")");
      Path died = Path.of(FaultyStorageProvider.local(Files.readString(dir.resolve("sigkilled.fired"))));
      assertTrue(died.startsWith(table), died.toString());
      assertFalse(Files.exists(died), died + " of the killed attempt is left");

      assertEquals(List.of("commit", "commit"), completedActions(table.toString()), "each write committed once");
      assertEveryDataFileIsCommitted(table.toString());
      assertNoMarkersLeft(table);
      assertEquals(lines(engineTwin("sigkilled-engine", TableType.COPY_ON_WRITE)),
          lines(Tables.open(table.toString())));
    } finally {
      background.shutdownNow();
      spark.stop();
    }
  }

  /**
   * The command "Running on a cluster" in docs/spark.md shows, as a user runs it: Spark's {@code SparkSubmit} in its
   * own JVM on Spark's jars, the bundle through {@code --jars}, the job's class ({@link BundleDriver}, compiled into
   * a jar of its own here) through {@code --class}, against the test's standalone Master. The executors start on
   * Spark's jars only and fetch the bundle from the driver.
   */
  @Test
  @Order(6)
  void sparkSubmitWithTheBundleInJarsRunsAJob() throws IOException, InterruptedException {
    Path bundle = bundle();
    submitAndCheck("submitted", List.of("--jars", bundle.toString()), bundle.getFileName().toString());
  }

  /**
   * The same job with the bundle resolved by Maven coordinates: {@code --packages
   * dev.sluice:sluice-spark-bundle:<version> --repositories file://...}, a Maven repository the test lays out (the
   * bundle's jar, the POM the shade plugin wrote, the parent POM and the JUnit BOM the parent imports). Spark's
   * Ivy settings file names only an empty folder, so nothing comes from the network or a local cache: the bundle
   * can only come from that repository.
   */
  @Test
  @Order(7)
  void sparkSubmitWithTheBundleFromPackagesRunsAJob() throws IOException, InterruptedException {
    Path bundle = bundle();
    String name = bundle.getFileName().toString();
    String version = name.substring("sluice-spark-bundle-".length(), name.length() - ".jar".length());
    Path repo = dir.resolve("maven-repo");
    Path module = Files.createDirectories(repo.resolve("dev/sluice/sluice-spark-bundle").resolve(version));
    Files.copy(bundle, module.resolve(name));
    Files.copy(bundle.resolveSibling("dependency-reduced-pom.xml"),
        module.resolve("sluice-spark-bundle-" + version + ".pom"));
    Path parent = Files.createDirectories(repo.resolve("dev/sluice/sluice-parent").resolve(version));
    Files.copy(bundle.getParent().getParent().getParent().resolve("pom.xml"),
        parent.resolve("sluice-parent-" + version + ".pom"));
    // the parent POM imports JUnit's BOM (Maven Central serves it to a user): from the local repository the test's
    // own JUnit came from, at the parent's version
    Path parentPom = bundle.getParent().getParent().getParent().resolve("pom.xml");
    Matcher v = Pattern.compile("<junit.version>([^<]+)</junit.version>").matcher(Files.readString(parentPom));
    assertTrue(v.find(), parentPom.toString());
    Path orgJunit = Path.of(Test.class.getProtectionDomain().getCodeSource().getLocation().getPath())
        .getParent().getParent().getParent().getParent();
    Path bom = orgJunit.resolve("junit-bom").resolve(v.group(1)).resolve("junit-bom-" + v.group(1) + ".pom");
    Path bomDir = Files.createDirectories(repo.resolve("org/junit/junit-bom").resolve(v.group(1)));
    Files.copy(bom, bomDir.resolve(bom.getFileName()));
    Path empty = Files.createDirectories(dir.resolve("ivy-empty"));
    Path settings = dir.resolve("ivysettings.xml");
    Files.writeString(settings, "<ivysettings><settings defaultResolver=\"nothing\"/><resolvers>"
        + "<filesystem name=\"nothing\"><artifact pattern=\"" + empty + "/[artifact]-[revision].[ext]\"/>"
        + "</filesystem></resolvers></ivysettings>");
    submitAndCheck("packaged", List.of("--packages", "dev.sluice:sluice-spark-bundle:" + version,
        "--repositories", repo.toUri().toString(), "--conf", "spark.jars.ivySettings=" + settings,
        "--conf", "spark.jars.ivy=" + dir.resolve("ivy-home")), "sluice-spark-bundle");
  }

  private static Path bundle() {
    Path bundle = Path.of(System.getProperty("sluice.spark.bundle"));
    assertTrue(Files.isRegularFile(bundle), bundle + " (run through Maven's verify: the bundle is built at package)");
    return bundle;
  }

  /**
   * Runs {@link BundleDriver} through {@code spark-submit} with {@code bundleArgs} bringing the bundle, then checks
   * the rows and that every executor started without the bundle and fetched a jar named {@code fetched}.
   */
  private static void submitAndCheck(String name, List<String> bundleArgs, String fetched)
      throws IOException, InterruptedException {
    Path job = jobJar(dir.resolve(name + "-job.jar"));
    String sparkClassPath = StandaloneCluster.classPath(sparkJars);
    Path table = dir.resolve(name);
    Path out = dir.resolve(name + "-rows.txt");
    List<String> cmd = new ArrayList<>(List.of(StandaloneCluster.javaBin(), "-Xmx512m", "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC"));
    cmd.addAll(StandaloneCluster.JAVA_17_OPENS);
    cmd.addAll(List.of("-cp", sparkClassPath, "org.apache.spark.deploy.SparkSubmit",
        "--master", cluster.masterUrl(), "--deploy-mode", "client"));
    cmd.addAll(bundleArgs);
    cmd.addAll(List.of("--conf", "spark.executor.memory=512m", "--conf", "spark.executor.cores=1",
        "--class", BundleDriver.class.getName(), job.toString(),
        // BundleDriver's arguments: the executors' class path is Spark's jars alone (the bundle comes with the job)
        cluster.masterUrl(), table.toString(), out.toString(), sparkClassPath));
    Path log = dir.resolve(name + "-spark-submit.log");
    Process submit = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertTrue(submit.waitFor(10, TimeUnit.MINUTES), "spark-submit did not end");
      assertEquals(0, submit.exitValue(), () -> StandaloneCluster.tail(read(log)));
    } finally {
      submit.descendants().forEach(ProcessHandle::destroyForcibly);
      submit.destroyForcibly();
    }

    List<String> expected = lines(engineTwin(name + "-engine", TableType.MERGE_ON_READ));
    assertEquals(expected, Files.readAllLines(out), "the submitted job's read gives the engine's rows");
    assertEquals(expected, lines(Tables.open(table.toString())), "the engine reads what the job wrote");
    assertEveryDataFileIsCommitted(table.toString());
    assertNoMarkersLeft(table);

    // every executor of the application started without the bundle and fetched it from the driver
    String app = Files.readString(Path.of(out + ".app")).trim();
    List<Path> executorLogs = new ArrayList<>();
    for (String worker : List.of("worker-0-work", "worker-1-work")) {
      try (Stream<Path> s = Files.list(dir.resolve("cluster").resolve(worker).resolve(app))) {
        s.map(e -> e.resolve("stderr")).forEach(executorLogs::add);
      }
    }
    assertEquals(2, executorLogs.size(), executorLogs.toString());
    for (Path e : executorLogs) {
      String text = read(e);
      String command = text.lines().filter(l -> l.startsWith("Spark Executor Command:")).findFirst().orElseThrow();
      assertFalse(command.contains("sluice-spark-bundle") || command.contains("test-classes"), command);
      assertTrue(text.lines().anyMatch(l -> l.contains("Fetching") && l.contains(fetched)),
          e + " fetched no bundle:\n" + StandaloneCluster.tail(text));
    }
  }

  /** A jar of {@link BundleDriver}'s compiled class alone: the job a user submits. */
  private static Path jobJar(Path jar) throws IOException {
    String entry = BundleDriver.class.getName().replace('.', '/') + ".class";
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (InputStream in = BundleDriver.class.getClassLoader().getResourceAsStream(entry);
         JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      assertTrue(in != null, entry);
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }

  /** No marker directory of any instant left under {@code .hoodie/.temp}. */
  private static void assertNoMarkersLeft(Path table) throws IOException {
    Path temp = table.resolve(".hoodie").resolve(".temp");
    if (Files.exists(temp)) {
      try (Stream<Path> s = Files.list(temp)) {
        assertEquals(List.of(), s.toList(), "marker directories left");
      }
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return "(no " + p + ": " + e + ")";
    }
  }

  /** The executor JVM's process id; the pause lets both executors take tasks. */
  private static Long pidOfTask(Integer i) throws InterruptedException {
    Thread.sleep(300);
    return ProcessHandle.current().pid();
  }

  /** A driver in this JVM; executors on the test's class path (Maven's), as the cluster applications above. */
  private static SparkSession session(String app, Map<String, String> extra) {
    String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    SparkSession.Builder b = SparkSession.builder().master(cluster.masterUrl()).appName(app);
    BundleDriver.clusterConf(testClassPath).forEach(b::config);
    extra.forEach(b::config);
    return b.getOrCreate();
  }

  /** The engine alone on one machine, with the same two batches. */
  private static Table engineTwin(String name, TableType type) {
    Schema schema = avroSchema();
    TableSpec spec = TableSpec.builder("trips").type(type).recordKey("id").precombine("ts").partitionBy("part")
        .schema(schema).build();
    Map<String, String> options = BundleDriver.options(type.name());
    Table t = Tables.create(dir.resolve(name).toString(), spec, Config.of(Map.of(
        "hoodie.parquet.max.file.size", options.get("hoodie.parquet.max.file.size"),
        "hoodie.parquet.small.file.limit", options.get("hoodie.parquet.small.file.limit"))));
    t.insert(records(BundleDriver.firstBatch(), schema).iterator());
    t.upsert(records(BundleDriver.secondBatch(), schema).iterator());
    return t;
  }

  private static Schema avroSchema() {
    return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"trips_record\",\"namespace\":\"hoodie.trips\","
        + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"part\",\"type\":\"string\"},"
        + "{\"name\":\"ts\",\"type\":\"long\"},{\"name\":\"payload\",\"type\":\"string\"}]}");
  }

  private static List<GenericRecord> records(List<Row> rows, Schema schema) {
    List<GenericRecord> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      GenericRecord g = new GenericData.Record(schema);
      g.put("id", r.getString(0));
      g.put("part", r.getString(1));
      g.put("ts", r.getLong(2));
      g.put("payload", r.getString(3));
      out.add(g);
    }
    return out;
  }

  /** The engine's snapshot as sorted {@code id|part|ts|payload} lines (as {@link BundleDriver#lines}). */
  private static List<String> lines(Table t) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        out.add(r.get("id") + "|" + r.get("part") + "|" + r.get("ts") + "|" + r.get("payload"));
      }
    }
    out.sort(null);
    return out;
  }

  private static List<String> completedActions(String path) {
    return Tables.open(path).inspect().timeline().stream().filter(InstantInfo::isCompleted)
        .map(InstantInfo::action).toList();
  }

  /**
   * No stray file: the data files on disk (base and log files outside {@code .hoodie}) are exactly the files of the
   * table's file-system view, and each is named by a completed commit's write stats (a file of a failed or
   * duplicated attempt under a committed instant would be in the view but in no commit).
   */
  private static void assertEveryDataFileIsCommitted(String path) {
    Path root = Path.of(path);
    Set<String> onDisk = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString())
          .filter(p -> !p.startsWith(".hoodie"))
          .filter(p -> p.endsWith(".parquet") || p.contains(".log."))
          .forEach(onDisk::add);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    TableInspection table = Tables.open(path).inspect();
    Set<String> inView = new TreeSet<>();
    for (String partition : table.partitions()) {
      String prefix = partition.isEmpty() ? "" : partition + "/";
      for (FileGroupInfo g : table.fileGroups(partition)) {
        for (FileSliceInfo s : g.slices()) {
          s.baseFile().ifPresent(b -> inView.add(prefix + b.fileName()));
          s.logFiles().forEach(l -> inView.add(prefix + l.fileName()));
        }
      }
    }
    Set<String> committed = new TreeSet<>();
    for (CommitInfo c : table.completedCommits().values()) {
      for (WriteStatInfo w : c.stats()) {
        w.path().ifPresent(committed::add);
      }
    }
    assertEquals(onDisk, inView, "the files on disk are the file-system view's");
    Set<String> unnamed = new TreeSet<>(onDisk);
    unnamed.removeAll(committed);
    assertEquals(Set.of(), unnamed, "files no completed commit names");
    assertTrue(onDisk.size() > 3, onDisk.toString());
  }
}
