package dev.sluice.crash;

import dev.sluice.internal.service.TableInternals;
import dev.sluice.api.Table;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.CrashingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Runs crash trials: for each scenario it builds the starting table, runs the operation once in this JVM with kill
 * points traced (which gives the points in order and the state after the operation), then for each chosen point (and
 * each random moment) copies the starting table, runs the operation in a {@link CrashChild} that dies there (SIGKILL for
 * random moments), and checks the copy: the snapshot is the state before or after the operation, never a mix (a
 * point before the commit gives "before", one after it "after"); no key twice; then the scenario's recovery and a
 * follow-up write succeed and roll back what the crash left; afterwards nothing is pending, no markers are left and
 * every data file is named by a completed instant (log files of rolled-back writes excepted, as Hudi leaves them).
 */
public final class CrashHarness {
  /** Number of kill points over all scenarios (default run: 48). */
  public static final String POINTS_PROPERTY = "sluice.crash.points";
  /** Number of random-moment kills over all scenarios (default 6). */
  public static final String RANDOM_PROPERTY = "sluice.crash.random";
  /** Seed of the choice of points and moments (default 1; {@code random}: a new one, printed). */
  public static final String SEED_PROPERTY = "sluice.crash.seed";
  /** Comma-separated names of the scenarios to run (default: all). */
  public static final String SCENARIOS_PROPERTY = "sluice.crash.scenarios";

  /**
   * Run settings.
   *
   * @param points kill points to try over all scenarios
   * @param randomKills random-moment kills over all scenarios
   * @param seed seed of every random choice
   * @param work scratch folder
   */
  public record Settings(int points, int randomKills, long seed, Path work) {
    /** Settings from {@value #POINTS_PROPERTY}, {@value #RANDOM_PROPERTY} and {@value #SEED_PROPERTY}. */
    public static Settings fromSystemProperties(Path work, int defaultPoints, int defaultRandom) {
      String seed = System.getProperty(SEED_PROPERTY, "1").trim();
      long s = seed.equals("random") ? new Random().nextLong() & Long.MAX_VALUE : Long.parseLong(seed);
      return new Settings(Integer.getInteger(POINTS_PROPERTY, defaultPoints), Integer.getInteger(RANDOM_PROPERTY,
          defaultRandom), s, work);
    }

    /** The scenarios named by {@value #SCENARIOS_PROPERTY}, or all of {@code all}. */
    public static List<CrashScenario> scenarios(List<CrashScenario> all) {
      String names = System.getProperty(SCENARIOS_PROPERTY, "").trim();
      if (names.isEmpty()) {
        return all;
      }
      Set<String> wanted = new HashSet<>(List.of(names.split("\\s*,\\s*")));
      List<CrashScenario> out = all.stream().filter(x -> wanted.contains(x.name())).toList();
      if (out.size() != wanted.size()) {
        throw new IllegalArgumentException("unknown crash scenarios in " + names + "; known: "
            + all.stream().map(CrashScenario::name).toList());
      }
      return out;
    }
  }

  /** When a hook is called. */
  public enum Phase {
    /** Right after the crash, before anything touched the table. */
    AFTER_CRASH,
    /** After recovery and the follow-up write. */
    AFTER_RECOVERY
  }

  /** Extra checks on trials (the interop tests have Hudi read a sample). */
  @FunctionalInterface
  public interface Hook {
    /** Called with the trial's table and the rows Sluice expects there (record key → row as text). */
    void check(Phase phase, String trial, Path table, Map<String, String> expectedRows);
  }

  /**
   * What a run did.
   *
   * @param killPoints trials with an armed kill point
   * @param randomKills trials killed at a random moment
   * @param killed trials whose child died
   * @param finished trials whose operation finished before the kill (point not reached, or moment too late)
   * @param failures what went wrong, one line per finding (empty when all is well)
   * @param perScenario trials per scenario
   */
  public record Report(int killPoints, int randomKills, int killed, int finished, List<String> failures,
      Map<String, Integer> perScenario) {
    /** One line for the test output. */
    public String summary(long seed) {
      return "crash trials: " + killPoints + " kill points + " + randomKills + " random moments (seed " + seed + "), "
          + killed + " killed, " + finished + " finished first, " + failures.size() + " failures; per scenario "
          + perScenario;
    }
  }

  private final Settings settings;
  private final Hook hook;
  private java.util.function.Predicate<String> preferred = p -> false;
  private Set<String> always = Set.of();
  private final List<String> failures = new ArrayList<>();
  private final Map<String, Integer> perScenario = new LinkedHashMap<>();
  private int pointTrials;
  private int randomTrials;
  private int killed;
  private int finished;
  private long childMillis;
  private long checkMillis;
  private ChildJvm spare;
  private ChildClasspath classpath;
  private final java.util.Deque<ChildJvm> idle = new java.util.ArrayDeque<>();

  /** A harness with {@code settings}; {@code hook} sees every trial. */
  public CrashHarness(Settings settings, Hook hook) {
    this.settings = settings;
    this.hook = hook;
  }

  /**
   * Kill points matching {@code preferred} are tried before the seeded sample of the others (after the two around the
   * commit point), so that a short run covers the steps a test is about.
   */
  public CrashHarness preferring(java.util.function.Predicate<String> preferred) {
    this.preferred = preferred;
    return this;
  }

  /**
   * Kill points tried in every scenario whose trace has them, right after the two around the commit point and before
   * the preferred ones (within the scenario's share): points where a bug was once found stay in the default run.
   */
  public CrashHarness always(Set<String> points) {
    this.always = Set.copyOf(points);
    return this;
  }

  /** Runs every scenario's trials and returns what happened. */
  public Report run(List<CrashScenario> scenarios) {
    Random random = new Random(settings.seed());
    classpath = ChildClasspath.shared();
    spare = ChildJvm.start(settings.work().resolve("children"), classpath);
    try {
      List<Traced> traced = new ArrayList<>();
      for (CrashScenario s : scenarios) {
        traced.add(trace(s));
      }
      Map<String, Integer> available = new LinkedHashMap<>();
      traced.forEach(x -> available.put(x.scenario().name(), distinct(x.trace())));
      System.out.println("crash harness: " + available.values().stream().mapToInt(Integer::intValue).sum()
          + " distinct kill points available " + available);
      int[] points = share(settings.points(), traced);
      int shortfall = settings.points() - java.util.Arrays.stream(points).sum();
      int n = traced.size();
      for (int i = 0; i < n; i++) {
        // random moments take an even share, plus the kill points the scenarios had too few of
        int total = settings.randomKills() + shortfall;
        int randoms = total / n + (i < total % n ? 1 : 0);
        runTrials(traced.get(i), points[i], randoms, random);
      }
    } finally {
      spare.close();
      idle.forEach(ChildJvm::close);
    }
    System.out.println("crash harness: " + childMillis + " ms waiting for children, " + checkMillis + " ms recovering");
    return new Report(pointTrials, randomTrials, killed, finished, List.copyOf(failures), Map.copyOf(perScenario));
  }

  /** A scenario's starting table, its kill points in order and the states around the operation. */
  private record Traced(CrashScenario scenario, Path root, Path base, List<String> trace, long opMillis,
      Map<String, String> before, Map<String, String> after, Set<Map<String, String>> allowed) {
  }

  /** Kill points per scenario: an even share, the unused share of small scenarios going to the larger ones. */
  private static int[] share(int total, List<Traced> traced) {
    int n = traced.size();
    int[] out = new int[n];
    int left = total;
    boolean progress = true;
    while (left > 0 && progress) {
      progress = false;
      List<Integer> open = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (out[i] < distinct(traced.get(i).trace())) {
          open.add(i);
        }
      }
      for (int k = 0; k < open.size() && left > 0; k++) {
        int i = open.get(k);
        int want = Math.max(1, left / (open.size() - k));
        int give = Math.min(want, distinct(traced.get(i).trace()) - out[i]);
        if (give > 0) {
          out[i] += give;
          left -= give;
          progress = true;
        }
      }
    }
    return out;
  }

  private static int distinct(List<String> trace) {
    return new HashSet<>(trace).size();
  }

  private Traced trace(CrashScenario s) {
    Path root = settings.work().resolve(s.name());
    Path base = root.resolve("start");
    List<Map<String, GenericRecord>> states = s.setup().build(base, new CrashingStorage(new LocalStorage()));
    Map<String, String> before = canonical(TripFixture.rows(open(base, s)));
    Path tracedDir = copy(base, root.resolve("traced"));
    long t0 = System.nanoTime();
    KillPoints.startTrace();
    List<String> trace;
    try {
      s.op().run(open(tracedDir, s));
    } finally {
      trace = KillPoints.stopTrace();
    }
    long opMillis = Math.max(1, (System.nanoTime() - t0) / 1_000_000);
    Map<String, String> after = canonical(TripFixture.rows(open(tracedDir, s)));
    Set<Map<String, String>> allowed = new HashSet<>(List.of(before, after));
    if (s.intermediateStatesVisible()) {
      states.forEach(m -> allowed.add(canonical(m)));
    }
    deleteTree(tracedDir);
    return new Traced(s, root, base, trace, opMillis, before, after, allowed);
  }

  private void runTrials(Traced t, int points, int randoms, Random random) {
    CrashScenario s = t.scenario();
    int commitPoint = commitPoint(t.trace());
    List<String> chosen = choose(t.trace(), commitPoint, points, random, always, preferred);
    int trial = 0;
    for (String point : chosen) {
      int idx = t.trace().indexOf(point);
      Set<Map<String, String>> expect = s.intermediateStatesVisible() || commitPoint < 0 ? t.allowed()
          : Set.of(idx < commitPoint ? t.before() : t.after());
      runTrial(s, t.root().resolve("t" + trial++), t.base(), point, -1, expect, t.after());
      pointTrials++;
    }
    for (int i = 0; i < randoms; i++) {
      long delay = (long) (random.nextDouble() * t.opMillis() * 3);
      runTrial(s, t.root().resolve("t" + trial++), t.base(), "-", delay, t.allowed(), t.after());
      randomTrials++;
    }
    perScenario.put(s.name(), trial);
    deleteTree(t.root());
  }

  /** The index of the first point at which the operation's result is visible (-1 if the trace has none). */
  private static int commitPoint(List<String> trace) {
    for (int i = 0; i < trace.size(); i++) {
      String p = trace.get(i);
      if (p.startsWith("timeline.commit.completed.after") || p.startsWith("timeline.deltacommit.completed.after")
          || p.startsWith("rollback.unpublished")) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The points on both sides of the commit point, then those of {@code always}, then a seeded sample of the rest
   * (preferred ones first), in trace order.
   */
  private static List<String> choose(List<String> trace, int commitPoint, int n, Random random, Set<String> always,
      java.util.function.Predicate<String> preferred) {
    Set<String> picked = new LinkedHashSet<>();
    if (commitPoint > 0 && n >= 2) {
      picked.add(trace.get(commitPoint - 1));
      picked.add(trace.get(commitPoint));
    }
    for (String p : trace) {
      if (picked.size() < n && always.contains(p)) {
        picked.add(p);
      }
    }
    List<String> rest = new ArrayList<>(trace);
    rest.removeAll(picked);
    Collections.shuffle(rest, random);
    // stable: the preferred points first, each group in its shuffled order
    rest.sort((a, b) -> Boolean.compare(!preferred.test(a), !preferred.test(b)));
    for (String p : rest) {
      if (picked.size() >= n) {
        break;
      }
      picked.add(p);
    }
    List<String> out = new ArrayList<>(picked);
    out.sort((a, b) -> Integer.compare(trace.indexOf(a), trace.indexOf(b)));
    return out;
  }

  private void runTrial(CrashScenario s, Path dir, Path base, String point, long killAfter,
      Set<Map<String, String>> expect, Map<String, String> after) {
    String name = s.name() + " @ " + (killAfter >= 0 ? "random moment +" + killAfter + "ms" : point);
    copy(base, dir);
    long c0 = System.nanoTime();
    ChildJvm child = takeChild();
    ChildJvm.Result res = child.run(dir, s.name(), point, killAfter);
    childMillis += (System.nanoTime() - c0) / 1_000_000;
    if (res.outcome() == ChildJvm.Outcome.KILLED) {
      killed++;
    } else {
      finished++;
      releaseChild(child);
    }
    try {
      if (res.outcome() == ChildJvm.Outcome.FAILED) {
        failures.add(name + ": the operation failed without a crash: " + res.message());
        return;
      }
      check(s, name, dir, res.outcome() == ChildJvm.Outcome.DONE ? Set.of(after) : expect, after);
    } catch (RuntimeException | AssertionError e) {
      failures.add(name + ": " + e);
    } finally {
      deleteTree(dir);
    }
  }

  private void check(CrashScenario s, String name, Path dir, Set<Map<String, String>> expect, Map<String, String> after) {
    Table t = open(dir, s);
    Map<String, String> now = canonical(TripFixture.rows(t));
    if (!expect.contains(now)) {
      failures.add(name + ": the snapshot after the crash is not an allowed state (" + now.size() + " rows; allowed "
          + expect.stream().map(Map::size).toList() + " rows): " + diff(now, expect));
      return;
    }
    hook.check(Phase.AFTER_CRASH, name, dir, now);
    List<String> pending = Scenarios.pendingWrites(t).stream().map(Instant::time).toList();
    boolean interrupted = !TableInternals.timeline(t).filter(i -> !i.isCompleted()
        && (i.action() == Action.ROLLBACK || i.action() == Action.RESTORE)).isEmpty();
    long r0 = System.nanoTime();
    s.recovery().run(t);
    Map<String, String> recovered = canonical(TripFixture.rows(t));
    if (interrupted && s.finishedByRecovery() && !recovered.equals(after)) {
      failures.add(name + ": recovery finished the interrupted operation, but the table is not its result: "
          + diff(recovered, Set.of(after)));
    }
    t.upsert(Scenarios.followUp().iterator());
    Map<String, String> expected = new TreeMap<>(recovered);
    expected.putAll(canonical(toMap(Scenarios.followUp())));
    Map<String, String> fin = canonical(TripFixture.rows(t));
    if (!fin.equals(expected)) {
      failures.add(name + ": after the follow-up write: " + diff(fin, Set.of(expected)));
    }
    if (!TableInternals.timeline(t).filter(i -> !i.isCompleted() && i.action() != Action.SAVEPOINT).isEmpty()) {
      failures.add(name + ": pending instants after the follow-up write: " + TableInternals.timeline(t));
    }
    Set<String> rolledBack = rolledBack(t);
    for (String p : pending) {
      if (!rolledBack.contains(p) && !s.intermediateStatesVisible()) {
        failures.add(name + ": the crashed write " + p + " has no rollback instant (rolled back: " + rolledBack + ")");
      }
    }
    List<String> leftovers = TableChecks.unreferenced(dir, true);
    if (!leftovers.isEmpty()) {
      failures.add(name + ": files no completed instant references: " + leftovers);
    }
    // a crash between publishing and deleting the markers leaves the folder of a completed instant: harmless (nothing
    // reads it), and writes do not list .temp to find it; the sweep of a rollback or clean that runs removes it.
    // A folder of an instant that is not completed (pending, or rolled back) must never be left.
    List<String> markerDirs = markerDirs(dir);
    Timeline finalTimeline = TableInternals.timeline(t);
    List<String> notCompleted = markerDirs.stream().filter(m -> !finalTimeline.isCompleted(m)).toList();
    if (!notCompleted.isEmpty()) {
      failures.add(name + ": marker folders of instants that are not completed left: " + notCompleted);
    }
    if (!markerDirs.isEmpty()) {
      new Rollbacks(t.storage(), t.location()).cleanStale();
      if (!markerDirs(dir).isEmpty()) {
        failures.add(name + ": the stale sweep left marker folders: " + markerDirs(dir));
      }
    }
    for (String problem : s.finalCheck().problems(t)) {
      failures.add(name + ": " + problem);
    }
    hook.check(Phase.AFTER_RECOVERY, name, dir, fin);
    checkMillis += (System.nanoTime() - r0) / 1_000_000;
  }

  private static List<String> markerDirs(Path dir) {
    Path temp = dir.resolve(".hoodie/.temp");
    try (Stream<Path> st = Files.isDirectory(temp) ? Files.list(temp) : Stream.empty()) {
      return st.map(p -> p.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<String> rolledBack(Table t) {
    TimelineStore store = new TimelineStore(t.storage(), t.location());
    Set<String> out = new HashSet<>();
    for (Instant i : TableInternals.timeline(t).filter(x -> x.action() == Action.ROLLBACK && x.isCompleted()).instants()) {
      out.addAll(RollbackMetadata.fromAvroBytes(store.read(i), store.pathOf(i)).commitsRollback());
    }
    return out;
  }

  private ChildJvm takeChild() {
    ChildJvm c = idle.poll();
    if (c != null) {
      return c;
    }
    c = spare;
    c.awaitReady();
    // the next child warms up while this one runs and the trial is checked
    spare = ChildJvm.start(settings.work().resolve("children"), classpath);
    return c;
  }

  private void releaseChild(ChildJvm c) {
    // a child that survived its trial is as good as a fresh one
    idle.push(c);
  }

  private static Table open(Path dir, CrashScenario s) {
    return s.open(dir);
  }

  private static Map<String, GenericRecord> toMap(List<GenericRecord> records) {
    Map<String, GenericRecord> m = new TreeMap<>();
    records.forEach(r -> m.put(r.get("id").toString(), r));
    return m;
  }

  /** Rows as text, so rows read back compare with rows built in the test. */
  static Map<String, String> canonical(Map<String, GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach((k, v) -> out.put(k, GenericData.get().toString(v)));
    return out;
  }

  private static String diff(Map<String, String> got, Set<Map<String, String>> allowed) {
    StringBuilder sb = new StringBuilder();
    for (Map<String, String> a : allowed) {
      Set<String> missing = new java.util.TreeSet<>(a.keySet());
      missing.removeAll(got.keySet());
      Set<String> extra = new java.util.TreeSet<>(got.keySet());
      extra.removeAll(a.keySet());
      List<String> changed = new ArrayList<>();
      for (String k : got.keySet()) {
        if (a.containsKey(k) && !a.get(k).equals(got.get(k))) {
          changed.add(k);
        }
      }
      sb.append("[vs ").append(a.size()).append(" rows: missing ").append(missing).append(", extra ").append(extra)
          .append(", changed ").append(changed).append("] ");
    }
    return sb.toString();
  }

  static Path copy(Path from, Path to) {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return to;
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> all = new ArrayList<>(s.toList());
      Collections.reverse(all);
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
