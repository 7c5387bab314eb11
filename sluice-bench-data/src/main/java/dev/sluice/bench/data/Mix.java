package dev.sluice.bench.data;

/**
 * SplitMix64 arithmetic: the one source of randomness of the workloads, written out here so that every JVM (and
 * every JDK) derives the same values from the same seed. {@link #mix} is a bijection on 64-bit values, which is
 * what makes record keys unique without bookkeeping.
 */
final class Mix {
  static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Mix() {
  }

  /** SplitMix64's finaliser (Stafford variant 13): a bijective scramble of {@code z}. */
  static long mix(long z) {
    long x = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    return x ^ (x >>> 31);
  }

  /** A small deterministic random stream. */
  static final class Stream {
    private long state;

    Stream(long seed) {
      this.state = seed;
    }

    long nextLong() {
      state += GOLDEN;
      return mix(state);
    }

    /** Uniform in {@code [0, bound)} for {@code bound > 0} (modulo bias is below 2^-40 for our bounds). */
    long nextLong(long bound) {
      return Long.remainderUnsigned(nextLong(), bound);
    }

    int nextInt(int bound) {
      return (int) nextLong(bound);
    }

    /** Uniform in {@code [0, 1)} with 53 bits. */
    double nextDouble() {
      return (nextLong() >>> 11) * 0x1.0p-53;
    }

    boolean nextBoolean() {
      return nextLong() < 0;
    }
  }
}
