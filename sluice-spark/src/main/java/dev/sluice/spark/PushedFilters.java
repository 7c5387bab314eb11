package dev.sluice.spark;

import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;

/**
 * Spark's data-source filters as the engine's expressions, for its partition pruning and Parquet-statistics
 * skipping. Comparisons, {@code in}, null checks, {@code and} and {@code or} over the table's own columns are
 * taken; {@code not}, string patterns and filters on the {@code _hoodie_*} meta columns are not (the engine's
 * {@code not} is two-valued, Spark's three-valued). Spark evaluates every filter again on the rows returned, so a
 * filter the engine reads more rows for stays exact.
 */
final class PushedFilters {
  private PushedFilters() {
  }

  /** The engine's expression for {@code f}, if it has one. */
  static Optional<Expression> toExpression(Filter f) {
    if (f instanceof EqualTo e) {
      return literal(e.value()).flatMap(v -> column(e.attribute()).map(c -> Expressions.eq(c, v)));
    } else if (f instanceof GreaterThan e) {
      return literal(e.value()).flatMap(v -> column(e.attribute()).map(c -> Expressions.gt(c, v)));
    } else if (f instanceof GreaterThanOrEqual e) {
      return literal(e.value()).flatMap(v -> column(e.attribute()).map(c -> Expressions.ge(c, v)));
    } else if (f instanceof LessThan e) {
      return literal(e.value()).flatMap(v -> column(e.attribute()).map(c -> Expressions.lt(c, v)));
    } else if (f instanceof LessThanOrEqual e) {
      return literal(e.value()).flatMap(v -> column(e.attribute()).map(c -> Expressions.le(c, v)));
    } else if (f instanceof In in) {
      List<Object> values = new ArrayList<>();
      for (Object v : in.values()) {
        Optional<Object> l = literal(v);
        if (l.isEmpty()) {
          return Optional.empty();
        }
        values.add(l.get());
      }
      return column(in.attribute()).map(c -> Expressions.in(c, values));
    } else if (f instanceof IsNull n) {
      return column(n.attribute()).map(Expressions::isNull);
    } else if (f instanceof IsNotNull n) {
      return column(n.attribute()).map(Expressions::isNotNull);
    } else if (f instanceof And a) {
      Optional<Expression> l = toExpression(a.left());
      Optional<Expression> r = toExpression(a.right());
      return l.isPresent() && r.isPresent() ? Optional.of(Expressions.and(l.get(), r.get())) : l.or(() -> r);
    } else if (f instanceof Or o) {
      Optional<Expression> l = toExpression(o.left());
      Optional<Expression> r = toExpression(o.right());
      return l.isPresent() && r.isPresent() ? Optional.of(Expressions.or(l.get(), r.get())) : Optional.empty();
    }
    return Optional.empty();
  }

  private static Optional<String> column(String attribute) {
    return SparkRows.META.contains(attribute) || attribute.contains("`") ? Optional.empty() : Optional.of(attribute);
  }

  /** A literal the engine's expressions take ({@code null}: none, Spark never pushes a null comparison). */
  private static Optional<Object> literal(Object v) {
    if (v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long
        || v instanceof Double || v instanceof Float || v instanceof Short || v instanceof Byte
        || v instanceof BigDecimal) {
      return Optional.of(v);
    } else if (v instanceof Date d) {
      return Optional.of(d.toLocalDate());
    } else if (v instanceof java.time.LocalDate d) {
      return Optional.of(d);
    } else if (v instanceof Timestamp t) {
      return Optional.of(t.toInstant());
    } else if (v instanceof java.time.Instant i) {
      return Optional.of(i);
    }
    return Optional.empty();
  }
}
