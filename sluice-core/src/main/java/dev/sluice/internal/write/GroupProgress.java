package dev.sluice.internal.write;

import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.util.ProgressMeter;
import java.util.Iterator;

/**
 * The records of one planned file group counted on the write's progress meter as its handle takes them (a batch of
 * {@value #BATCH} at a time, so the shared counter is not touched per record), and topped up to the planned count
 * when the group is written: a Copy-on-Write rewrite looks its updates up by key as it streams the base file, so only
 * its inserts pass through an iterator. One thread per group; without a listener the iterators are not wrapped.
 */
final class GroupProgress {
  private static final int BATCH = 256;

  private final ProgressMeter meter;
  private final long planned;
  private long counted;
  private int pending;

  private GroupProgress(ProgressMeter meter, long planned) {
    this.meter = meter;
    this.planned = planned;
  }

  /** The count of {@code w}'s records on {@code meter}. */
  static GroupProgress of(ProgressMeter meter, FileGroupWrite w) {
    return new GroupProgress(meter, w.updates() + w.inserts());
  }

  /** {@code records}, each one taken counted. */
  Iterator<WriteRecord> count(Iterator<WriteRecord> records) {
    if (!meter.on()) {
      return records;
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return records.hasNext();
      }

      @Override
      public WriteRecord next() {
        WriteRecord r = records.next();
        if (++pending == BATCH) {
          flush();
        }
        return r;
      }
    };
  }

  private void flush() {
    meter.advance(pending);
    counted += pending;
    pending = 0;
  }

  /** The group is written: what was not counted yet of its planned records counts now. */
  void done() {
    if (!meter.on()) {
      return;
    }
    flush();
    meter.advance(Math.max(0, planned - counted));
  }

  /** The records the write of {@code plan} handles, the total of its progress. */
  static long total(java.util.List<FileGroupWrite> plan) {
    long n = 0;
    for (FileGroupWrite w : plan) {
      n += w.updates() + w.inserts();
    }
    return n;
  }
}
