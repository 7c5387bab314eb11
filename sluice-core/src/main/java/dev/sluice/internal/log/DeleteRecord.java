package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;

/**
 * One deleted key in a delete block ({@code DeleteRecord}).
 *
 * <p>The ordering value travels in the block as one of Hudi's value wrappers; the Java types map to them as
 * {@code Boolean}→BooleanWrapper, {@code Integer}→IntWrapper, {@code Long}→LongWrapper, {@code Float}→FloatWrapper,
 * {@code Double}→DoubleWrapper, {@code ByteBuffer}→BytesWrapper, {@code String} (any CharSequence)→StringWrapper,
 * {@link LocalDate}→DateWrapper, {@link BigDecimal}→DecimalWrapper (precision 30, scale 15), {@link LocalTime}
 * →TimeMicrosWrapper, {@link Instant}→TimestampMicrosWrapper, and {@code null} to no value; a {@code List} of
 * those (one per ordering field, a null element allowed) → ArrayWrapper (Hudi 1.1, several ordering fields; its
 * LocalDateWrapper elements read as {@link LocalDate}). Reading gives back the same types (a decimal with scale 15).
 *
 * @param recordKey the record key (may be null only in damaged or foreign files)
 * @param partitionPath the partition path
 * @param orderingValue the ordering (precombine) value, or null
 */
public record DeleteRecord(String recordKey, String partitionPath, Object orderingValue) {
  /** The ordering value of deletes made without one (Hudi's delete API): {@code Integer 0}, "natural order". */
  public static final Integer NATURAL_ORDERING = 0;

  /** Normalises a CharSequence ordering value to String and rejects types Hudi cannot store. */
  public DeleteRecord {
    if (orderingValue instanceof CharSequence cs && !(orderingValue instanceof String)) {
      orderingValue = cs.toString();
    }
    if (orderingValue != null && !isSupported(orderingValue)) {
      throw Errors.unsupported("An ordering value of type " + orderingValue.getClass().getName() + " in a delete block (key '"
              + recordKey + "')",
          "Use a precombine field of type boolean, int, long, float, double, bytes, string, date, decimal, time or timestamp.");
    }
  }

  /** A delete without ordering value, as Hudi's delete API makes it (ordering {@code Integer 0}). */
  public static DeleteRecord of(String recordKey, String partitionPath) {
    return new DeleteRecord(recordKey, partitionPath, NATURAL_ORDERING);
  }

  private static boolean isSupported(Object v) {
    if (v instanceof java.util.List<?> values) {
      // several ordering fields (Hudi 1.1's ArrayWrapper): each value one of the single types, or null
      return values.stream().allMatch(e -> e == null || (!(e instanceof java.util.List) && isSupported(e)));
    }
    return v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Float || v instanceof Double
        || v instanceof ByteBuffer || v instanceof String || v instanceof LocalDate || v instanceof BigDecimal
        || v instanceof LocalTime || v instanceof Instant;
  }
}
