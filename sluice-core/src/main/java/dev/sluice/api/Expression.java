package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.read.expr.ExpressionBinder;
import dev.sluice.internal.read.expr.ExpressionText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A row predicate over named columns, unbound: column names are not yet checked against a schema and literals
 * keep the Java type they were given. Build one with {@link Expressions} or {@link ExpressionParser#parse},
 * then {@link ExpressionBinder#bind bind} it to a schema to evaluate it.
 *
 * <p>A column is a field name, or a dotted path ({@code address.city}) into nested records. Literals are
 * {@code null}, {@link String}, {@link Boolean}, any {@link Number}, {@link java.time.LocalDate},
 * {@link java.time.LocalTime}, {@link java.time.LocalDateTime}, {@link java.time.Instant} or
 * {@link java.util.UUID}.
 *
 * <p>Null semantics are two-valued: a comparison or {@code in} with a null value (or a null literal) is
 * false, and {@code not} negates that, so {@code not (x > 5)} holds for a row whose {@code x} is null.
 *
 * <p>{@link #toString()} writes the expression in the syntax {@link ExpressionParser} reads back.
 */
public sealed interface Expression
    permits Expression.Comparison, Expression.In, Expression.IsNull, Expression.IsNotNull,
    Expression.And, Expression.Or, Expression.Not {

  /** The columns this expression references, in order of first appearance. */
  default Set<String> columns() {
    Set<String> out = new LinkedHashSet<>();
    collectColumns(this, out);
    return Collections.unmodifiableSet(out);
  }

  private static void collectColumns(Expression e, Set<String> out) {
    if (e instanceof Comparison c) {
      out.add(c.column());
    } else if (e instanceof In in) {
      out.add(in.column());
    } else if (e instanceof IsNull n) {
      out.add(n.column());
    } else if (e instanceof IsNotNull n) {
      out.add(n.column());
    } else if (e instanceof And a) {
      collectColumns(a.left(), out);
      collectColumns(a.right(), out);
    } else if (e instanceof Or o) {
      collectColumns(o.left(), out);
      collectColumns(o.right(), out);
    } else if (e instanceof Not n) {
      collectColumns(n.operand(), out);
    }
  }

  /** Comparison operators. */
  enum Op {
    /** Equal ({@code =}). */
    EQ("="),
    /** Not equal ({@code !=}). */
    NE("!="),
    /** Less than. */
    LT("<"),
    /** Less than or equal. */
    LE("<="),
    /** Greater than. */
    GT(">"),
    /** Greater than or equal. */
    GE(">=");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    /** The operator as the parser writes it. */
    public String symbol() {
      return symbol;
    }

    /** The operator that holds exactly when this one does not (for two non-null values). */
    public Op negate() {
      return switch (this) {
        case EQ -> NE;
        case NE -> EQ;
        case LT -> GE;
        case LE -> GT;
        case GT -> LE;
        case GE -> LT;
      };
    }

    /** Whether {@code cmp}, the sign of comparing a value with the literal, satisfies this operator. */
    public boolean holds(int cmp) {
      return switch (this) {
        case EQ -> cmp == 0;
        case NE -> cmp != 0;
        case LT -> cmp < 0;
        case LE -> cmp <= 0;
        case GT -> cmp > 0;
        case GE -> cmp >= 0;
      };
    }
  }

  /**
   * {@code column op literal}; false when the column's value or the literal is null.
   *
   * @param column column name or dotted path
   * @param op operator
   * @param literal value to compare with (may be null)
   */
  record Comparison(String column, Op op, Object literal) implements Expression {
    /** Checks the column name and the literal's type. */
    public Comparison {
      ExpressionText.checkColumn(column);
      Objects.requireNonNull(op, "op");
      ExpressionText.checkLiteral(column, literal);
    }

    @Override
    public String toString() {
      return ExpressionText.column(column) + " " + op.symbol() + " " + ExpressionText.literal(literal);
    }
  }

  /**
   * {@code column in (literal, ...)}; false when the column's value is null. Null literals never match.
   *
   * @param column column name or dotted path
   * @param literals candidate values, at least one (entries may be null)
   */
  record In(String column, List<Object> literals) implements Expression {
    /** Checks the column name and the literals, and copies the list. */
    public In {
      ExpressionText.checkColumn(column);
      Objects.requireNonNull(literals, "literals");
      if (literals.isEmpty()) {
        throw Errors.badRequest(ExpressionText.WHAT, "the in-list for column '" + column + "' is empty",
            "Give at least one value.");
      }
      for (Object literal : literals) {
        ExpressionText.checkLiteral(column, literal);
      }
      // List.copyOf rejects nulls, and a null literal is allowed here.
      literals = Collections.unmodifiableList(new ArrayList<>(literals));
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder(ExpressionText.column(column)).append(" in (");
      for (int i = 0; i < literals.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(ExpressionText.literal(literals.get(i)));
      }
      return sb.append(')').toString();
    }
  }

  /**
   * {@code column is null}: the value is null, or a record on the path to it is.
   *
   * @param column column name or dotted path
   */
  record IsNull(String column) implements Expression {
    /** Checks the column name. */
    public IsNull {
      ExpressionText.checkColumn(column);
    }

    @Override
    public String toString() {
      return ExpressionText.column(column) + " is null";
    }
  }

  /**
   * {@code column is not null}.
   *
   * @param column column name or dotted path
   */
  record IsNotNull(String column) implements Expression {
    /** Checks the column name. */
    public IsNotNull {
      ExpressionText.checkColumn(column);
    }

    @Override
    public String toString() {
      return ExpressionText.column(column) + " is not null";
    }
  }

  /**
   * Both sides hold.
   *
   * @param left first operand
   * @param right second operand
   */
  record And(Expression left, Expression right) implements Expression {
    /** Checks the operands are present. */
    public And {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
      // "and" is left-associative: a right operand that is itself an and/or needs parentheses to round-trip.
      String l = left instanceof Or ? "(" + left + ")" : left.toString();
      String r = right instanceof And || right instanceof Or ? "(" + right + ")" : right.toString();
      return l + " and " + r;
    }
  }

  /**
   * At least one side holds.
   *
   * @param left first operand
   * @param right second operand
   */
  record Or(Expression left, Expression right) implements Expression {
    /** Checks the operands are present. */
    public Or {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
      String r = right instanceof Or ? "(" + right + ")" : right.toString();
      return left + " or " + r;
    }
  }

  /**
   * The operand does not hold.
   *
   * @param operand expression to negate
   */
  record Not(Expression operand) implements Expression {
    /** Checks the operand is present. */
    public Not {
      Objects.requireNonNull(operand, "operand");
    }

    @Override
    public String toString() {
      return "not (" + operand + ")";
    }
  }
}
