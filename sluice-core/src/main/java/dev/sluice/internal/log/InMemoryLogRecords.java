package dev.sluice.internal.log;

import dev.sluice.api.CloseableIterator;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Merged log records held in a map, in the order keys were first seen. */
final class InMemoryLogRecords implements MutableLogRecords {
  private final Map<String, LogRecord> byKey = new LinkedHashMap<>();
  private ScanStats stats = ScanStats.none();

  @Override
  public LogRecord current(String key) {
    return byKey.get(key);
  }

  @Override
  public void put(LogRecord r) {
    byKey.put(r.key(), r);
  }

  @Override
  public void finish(ScanStats s) {
    this.stats = s;
  }

  @Override
  public Optional<LogRecord> get(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  @Override
  public Optional<LogRecord> remove(String key) {
    return Optional.ofNullable(byKey.remove(key));
  }

  @Override
  public Optional<LogRecord> remove(byte[] utf8, int offset, int length) {
    return remove(new String(utf8, offset, length, StandardCharsets.UTF_8));
  }

  @Override
  public CloseableIterator<LogRecord> all() {
    Iterator<LogRecord> it = Collections.unmodifiableCollection(byKey.values()).iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public LogRecord next() {
        return it.next();
      }

      @Override
      public void close() {
        // nothing is held open: the entries live in memory
      }
    };
  }

  @Override
  public long size() {
    return byKey.size();
  }

  @Override
  public ScanStats stats() {
    return stats;
  }

  @Override
  public void close() {
    byKey.clear();
  }
}
