package dev.sluice.internal.commit;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who holds a lock file or beats a heartbeat: a small JSON text naming the host, the process (pid and start time), the
 * thread and a token unique to the holder. Lock files and heartbeat files carry it, so that a holder that is gone
 * can be told from one that is alive without waiting for an expiry:
 *
 * <ul>
 *   <li>a process on this host that no longer runs (or whose pid now belongs to another process) is gone;</li>
 *   <li>this very process is gone as a holder once the token is no longer registered as live here: a lock or
 *       heartbeat left behind by a write that failed mid-way (its clean-up could not delete the file) must not
 *       make the next write in the same JVM wait for the expiry.</li>
 * </ul>
 *
 * Holders on other hosts are alive until their expiry: nothing here can see their processes.
 *
 * <p>Whether a pid still belongs to the process that wrote the text is decided by the process's start, in clock
 * ticks since boot as the kernel keeps it ({@code /proc/<pid>/stat}) where there is one. The JDK's
 * {@code ProcessHandle.Info.startInstant()} is boot time plus those ticks, with the boot time read once per JVM from
 * the wall clock: after the wall clock is stepped (NTP, a virtual machine resumed) two JVMs disagree on one process's
 * start, and comparing instants took a live writer for a reused pid, so its heartbeat counted as expired and its
 * instant was rolled back under it. Instants remain the fallback where {@code /proc} is absent, with a tolerance.
 */
final class Owners {
  private static final Set<String> LIVE = ConcurrentHashMap.newKeySet();
  /** How far two JVMs' views of one process's start instant may differ (their boot times are read at different times). */
  private static final long START_TOLERANCE_MILLIS = 5_000;

  private Owners() {
  }

  /** A new token, registered as live in this process until {@link #release}. */
  static String register(String token) {
    LIVE.add(token);
    return token;
  }

  /** The holder with {@code token} in this process is done. */
  static void release(String token) {
    LIVE.remove(token);
  }

  /** The owner text for a holder with {@code token} in this process and thread. */
  static String describe(String token) {
    ProcessHandle self = ProcessHandle.current();
    String started = self.info().startInstant().map(Instant::toString).orElse("");
    return "{\"lockCreateTime\":\"" + Instant.now() + "\",\"lockThreadName\":\"" + Thread.currentThread().getName()
        + "\",\"host\":\"" + host() + "\",\"pid\":" + self.pid() + ",\"processStart\":\"" + started
        + "\"" + startTicks(self.pid()).map(t -> ",\"processStartTicks\":" + t).orElse("") + ",\"token\":\"" + token
        + "\"}";
  }

  /** A short description of an owner text for messages: host and pid, or the text itself. */
  static String brief(String content) {
    String host = field(content, "host");
    String pid = field(content, "pid");
    return host == null || pid == null ? content : "process " + pid + " on " + host;
  }

  /**
   * True if the holder that wrote {@code content} is certainly gone: a process on this host that no longer runs,
   * or this process when the token is no longer live here. Unknown or remote holders are not gone.
   */
  static boolean isGone(String content) {
    String host = field(content, "host");
    String pid = field(content, "pid");
    if (host == null || pid == null || !host.equals(host())) {
      return false;
    }
    long p;
    try {
      p = Long.parseLong(pid);
    } catch (NumberFormatException e) {
      // not an owner text Sluice wrote: nothing can be concluded
      return false;
    }
    String started = field(content, "processStart");
    String ticks = field(content, "processStartTicks");
    if (p == ProcessHandle.current().pid()) {
      boolean sameProcess = sameStart(p, ticks, started, ProcessHandle.current());
      String token = field(content, "token");
      return !sameProcess || token != null && !LIVE.contains(token);
    }
    Optional<ProcessHandle> h = ProcessHandle.of(p);
    if (h.isEmpty() || !h.get().isAlive()) {
      return true;
    }
    // the pid was reused by another process
    return !sameStart(p, ticks, started, h.get());
  }

  /**
   * False only if process {@code p} certainly started at another time than the one an owner text recorded
   * ({@code ticks}, {@code started}; either may be null or empty): then its pid was reused.
   */
  private static boolean sameStart(long p, String ticks, String started, ProcessHandle h) {
    Optional<Long> actualTicks = startTicks(p);
    if (ticks != null && actualTicks.isPresent()) {
      return Long.parseLong(ticks) == actualTicks.get();
    }
    String actual = h.info().startInstant().map(Instant::toString).orElse("");
    if (started == null || started.isEmpty() || actual.isEmpty()) {
      return true;
    }
    try {
      return Math.abs(Instant.parse(started).toEpochMilli() - Instant.parse(actual).toEpochMilli())
          <= START_TOLERANCE_MILLIS;
    } catch (java.time.format.DateTimeParseException e) {
      // not a start Sluice wrote: nothing can be concluded
      return true;
    }
  }

  /** The start of process {@code pid} in clock ticks since boot (field 22 of {@code /proc/<pid>/stat}), on Linux. */
  static Optional<Long> startTicks(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    String text;
    try {
      text = Files.readString(stat, StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException e) {
      // no procfs (not Linux) or the process is gone: the caller falls back to start instants
      return Optional.empty();
    }
    // the command name (field 2) is in parentheses and may hold spaces and parentheses: count after the last ')'
    int close = text.lastIndexOf(')');
    if (close < 0) {
      return Optional.empty();
    }
    String[] after = text.substring(close + 1).trim().split(" ");
    // after[0] is field 3 (state), so field 22 (starttime) is after[19]
    if (after.length < 20) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(after[19]));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String field(String json, String name) {
    String key = "\"" + name + "\":";
    int at = json.indexOf(key);
    if (at < 0) {
      return null;
    }
    int from = at + key.length();
    if (from < json.length() && json.charAt(from) == '"') {
      int end = json.indexOf('"', from + 1);
      return end < 0 ? null : json.substring(from + 1, end);
    }
    int end = from;
    while (end < json.length() && Character.isDigit(json.charAt(end))) {
      end++;
    }
    return end == from ? null : json.substring(from, end);
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      // no resolvable host name: gone-process detection then never matches, expiry still works
      return "unknown-host";
    }
  }
}
