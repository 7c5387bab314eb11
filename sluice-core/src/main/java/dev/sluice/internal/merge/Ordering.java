package dev.sluice.internal.merge;

/** Comparison of ordering (precombine) values as Hudi's payloads compare them, tolerant of Avro's Utf8. */
public final class Ordering {
  /** The ordering value of records in tables without a precombine field (so that the later record wins). */
  public static final Integer NATURAL = 0;

  private Ordering() {
  }

  /** Normalises an Avro value into a comparable ordering value (CharSequence becomes String). */
  @SuppressWarnings("rawtypes")
  public static Comparable normalize(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof CharSequence cs && !(value instanceof String)) {
      return cs.toString();
    }
    if (value instanceof Comparable c) {
      return c;
    }
    return value.toString();
  }

  /** Compares two normalised ordering values; numbers of different boxed types compare by value. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compare(Comparable a, Comparable b) {
    if (a instanceof Number na && b instanceof Number nb && a.getClass() != b.getClass()) {
      if (isIntegral(na) && isIntegral(nb)) {
        return Long.compare(na.longValue(), nb.longValue());
      }
      return Double.compare(na.doubleValue(), nb.doubleValue());
    }
    return a.compareTo(b);
  }

  private static boolean isIntegral(Number n) {
    return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
  }
}
