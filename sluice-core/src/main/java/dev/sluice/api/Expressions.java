package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.Expression.Op;
import dev.sluice.internal.read.expr.ExpressionText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Factories for building {@link Expression}s from Java, e.g.
 * {@code and(gt("ts", 100L), eq("part", "p1"), isNotNull("name"))}.
 */
public final class Expressions {
  private Expressions() {
  }

  /** {@code column = literal}. */
  public static Expression eq(String column, Object literal) {
    return new Expression.Comparison(column, Op.EQ, literal);
  }

  /** {@code column != literal}. */
  public static Expression ne(String column, Object literal) {
    return new Expression.Comparison(column, Op.NE, literal);
  }

  /** {@code column < literal}. */
  public static Expression lt(String column, Object literal) {
    return new Expression.Comparison(column, Op.LT, literal);
  }

  /** {@code column <= literal}. */
  public static Expression le(String column, Object literal) {
    return new Expression.Comparison(column, Op.LE, literal);
  }

  /** {@code column > literal}. */
  public static Expression gt(String column, Object literal) {
    return new Expression.Comparison(column, Op.GT, literal);
  }

  /** {@code column >= literal}. */
  public static Expression ge(String column, Object literal) {
    return new Expression.Comparison(column, Op.GE, literal);
  }

  /** {@code column in (literals...)}. */
  public static Expression in(String column, Object... literals) {
    return new Expression.In(column, Arrays.asList(literals));
  }

  /** {@code column in (literals...)}. */
  public static Expression in(String column, List<?> literals) {
    return new Expression.In(column, new ArrayList<Object>(literals));
  }

  /** {@code column is null}. */
  public static Expression isNull(String column) {
    return new Expression.IsNull(column);
  }

  /** {@code column is not null}. */
  public static Expression isNotNull(String column) {
    return new Expression.IsNotNull(column);
  }

  /** {@code not operand}. */
  public static Expression not(Expression operand) {
    return new Expression.Not(operand);
  }

  /** All operands hold (left-associated: {@code and(a, b, c)} is {@code (a and b) and c}). */
  public static Expression and(Expression first, Expression... rest) {
    Expression out = first;
    for (Expression e : rest) {
      out = new Expression.And(out, e);
    }
    return out;
  }

  /** At least one operand holds (left-associated). */
  public static Expression or(Expression first, Expression... rest) {
    Expression out = first;
    for (Expression e : rest) {
      out = new Expression.Or(out, e);
    }
    return out;
  }

  /** All expressions hold; the list must not be empty. */
  public static Expression and(List<Expression> all) {
    if (all.isEmpty()) {
      throw Errors.badRequest(ExpressionText.WHAT, "and() needs at least one operand", null);
    }
    return and(all.get(0), all.subList(1, all.size()).toArray(new Expression[0]));
  }
}
