package dev.sluice.internal.log;

/** The scanner's side of merged log records: look up the current state of a key and replace it. */
interface MutableLogRecords extends MergedLogRecords {
  /** The current state of {@code key}, or null. */
  LogRecord current(String key);

  /** Sets the state of the record's key. */
  void put(LogRecord r);

  /** Records what the scan read, once it is done. */
  void finish(ScanStats s);
}
