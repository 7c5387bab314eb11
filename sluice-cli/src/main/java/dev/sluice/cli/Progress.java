package dev.sluice.cli;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Positioned;

/** Shows a running record count on a terminal (stderr) for long loads; silent when not on a terminal. */
final class Progress {
  private static final long INTERVAL_NANOS = 1_000_000_000L;

  private Progress() {
  }

  static <T> CloseableIterator<T> wrap(CloseableIterator<T> in, String verb) {
    if (System.console() == null) {
      return in;
    }
    long start = System.nanoTime();
    return new Counting<>() {
      private long count;
      private long lastPrint = start;

      @Override
      public boolean hasNext() {
        boolean more = in.hasNext();
        if (!more && count > 0 && lastPrint != start) {
          System.err.printf("\r%s %,d records%n", verb, count);
        }
        return more;
      }

      @Override
      public T next() {
        T t = in.next();
        count++;
        if ((count & 1023) == 0) {
          long now = System.nanoTime();
          if (now - lastPrint > INTERVAL_NANOS) {
            lastPrint = now;
            System.err.printf("\r%s %,d records (%.0f/s)", verb, count, count / ((now - start) / 1e9));
          }
        }
        return t;
      }

      @Override
      public void close() {
        in.close();
      }

      @Override
      public java.util.Optional<String> position() {
        return in instanceof Positioned p ? p.position() : java.util.Optional.empty();
      }
    };
  }

  /** The counting wrapper keeps telling where the last record came from. */
  private interface Counting<T> extends CloseableIterator<T>, Positioned {
  }
}
