package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression.Op;
import java.util.List;
import java.util.Set;

/** The evaluable form of an expression: columns resolved, literals in their column's canonical form. */
sealed interface BoundNode {

  /** Supplies a column's value: read from a record, or converted from a partition path. */
  @FunctionalInterface
  interface Values {
    /** The value, or null. */
    Object get(BoundColumn column);
  }

  /** Two-valued evaluation: comparisons with null are false; {@code not} negates. */
  boolean eval(Values values);

  /** Adds the columns this node reads. */
  void collectColumns(Set<BoundColumn> out);

  /**
   * {@code column op literal}.
   *
   * @param column resolved column
   * @param op operator
   * @param literal canonical literal, or null (then the comparison is always false)
   */
  record Compare(BoundColumn column, Op op, Object literal) implements BoundNode {
    @Override
    public boolean eval(Values values) {
      Object v = values.get(column);
      return v != null && literal != null && op.holds(column.compare(v, literal));
    }

    @Override
    public void collectColumns(Set<BoundColumn> out) {
      out.add(column);
    }
  }

  /**
   * {@code column in (literals)}.
   *
   * @param column resolved column
   * @param literals the non-null canonical literals (null literals never match, so they are dropped)
   */
  record In(BoundColumn column, List<Object> literals) implements BoundNode {
    @Override
    public boolean eval(Values values) {
      Object v = values.get(column);
      if (v == null) {
        return false;
      }
      for (Object literal : literals) {
        if (column.compare(v, literal) == 0) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void collectColumns(Set<BoundColumn> out) {
      out.add(column);
    }
  }

  /**
   * {@code column is null} ({@code wantNull}) or {@code column is not null}.
   *
   * @param column resolved column
   * @param wantNull true for {@code is null}
   */
  record NullCheck(BoundColumn column, boolean wantNull) implements BoundNode {
    @Override
    public boolean eval(Values values) {
      return (values.get(column) == null) == wantNull;
    }

    @Override
    public void collectColumns(Set<BoundColumn> out) {
      out.add(column);
    }
  }

  /**
   * Conjunction.
   *
   * @param left first operand
   * @param right second operand
   */
  record And(BoundNode left, BoundNode right) implements BoundNode {
    @Override
    public boolean eval(Values values) {
      return left.eval(values) && right.eval(values);
    }

    @Override
    public void collectColumns(Set<BoundColumn> out) {
      left.collectColumns(out);
      right.collectColumns(out);
    }
  }

  /**
   * Disjunction.
   *
   * @param left first operand
   * @param right second operand
   */
  record Or(BoundNode left, BoundNode right) implements BoundNode {
    @Override
    public boolean eval(Values values) {
      return left.eval(values) || right.eval(values);
    }

    @Override
    public void collectColumns(Set<BoundColumn> out) {
      left.collectColumns(out);
      right.collectColumns(out);
    }
  }

  /**
   * Negation.
   *
   * @param operand negated node
   */
  record Not(BoundNode operand) implements BoundNode {
    @Override
    public boolean eval(Values values) {
      return !operand.eval(values);
    }

    @Override
    public void collectColumns(Set<BoundColumn> out) {
      operand.collectColumns(out);
    }
  }
}
