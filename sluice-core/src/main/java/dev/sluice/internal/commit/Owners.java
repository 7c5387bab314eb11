package dev.sluice.internal.commit;

import java.net.InetAddress;
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
 */
final class Owners {
  private static final Set<String> LIVE = ConcurrentHashMap.newKeySet();

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
        + "\",\"token\":\"" + token + "\"}";
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
    if (p == ProcessHandle.current().pid()) {
      String self = ProcessHandle.current().info().startInstant().map(Instant::toString).orElse("");
      boolean sameProcess = started == null || started.isEmpty() || self.isEmpty() || started.equals(self);
      String token = field(content, "token");
      return !sameProcess || token != null && !LIVE.contains(token);
    }
    Optional<ProcessHandle> h = ProcessHandle.of(p);
    if (h.isEmpty() || !h.get().isAlive()) {
      return true;
    }
    String actual = h.get().info().startInstant().map(Instant::toString).orElse("");
    // the pid was reused by another process
    return started != null && !started.isEmpty() && !actual.isEmpty() && !started.equals(actual);
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
