package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression.Op;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Turns a bound expression into a Parquet {@link FilterPredicate} that keeps at least every row the expression
 * matches (it may keep more; the caller still filters exactly).
 *
 * <p>The conversion pushes negations down to the leaves itself, with Sluice's null semantics: {@code not (x < 5)}
 * holds for a null {@code x}, so it becomes {@code x >= 5 or x is null}. Parquet's own {@code not} is never
 * emitted, because its statistics filter rewrites {@code not(lt)} to {@code gtEq}, which would drop null rows.
 * Under an even number of negations an AND keeps whichever sides convert; an OR (or a negated AND) converts only
 * if both sides do. Leaves on decimal, UUID or non-primitive columns are not converted.
 */
final class ParquetPushdown {
  /** The file's Parquet schema, or null to trust that it matches the bound Avro schema. */
  private final MessageType fileSchema;

  private ParquetPushdown(MessageType fileSchema) {
    this.fileSchema = fileSchema;
  }

  static Optional<FilterPredicate> convert(BoundNode root, MessageType fileSchema) {
    return new ParquetPushdown(fileSchema).convert(root, false);
  }

  private Optional<FilterPredicate> convert(BoundNode node, boolean negated) {
    if (node instanceof BoundNode.Not n) {
      return convert(n.operand(), !negated);
    }
    if (node instanceof BoundNode.And a) {
      return negated ? disjunction(a.left(), a.right(), true) : conjunction(a.left(), a.right(), false);
    }
    if (node instanceof BoundNode.Or o) {
      return negated ? conjunction(o.left(), o.right(), true) : disjunction(o.left(), o.right(), false);
    }
    if (node instanceof BoundNode.Compare c) {
      return compare(c, negated);
    }
    if (node instanceof BoundNode.In in) {
      return in(in, negated);
    }
    if (node instanceof BoundNode.NullCheck n) {
      return nullCheck(n.column(), n.wantNull() != negated);
    }
    return Optional.empty();
  }

  /** A conjunction: keeps each side that converts (dropping a conjunct only widens the filter). */
  private Optional<FilterPredicate> conjunction(BoundNode left, BoundNode right, boolean negated) {
    Optional<FilterPredicate> l = convert(left, negated);
    Optional<FilterPredicate> r = convert(right, negated);
    if (l.isPresent() && r.isPresent()) {
      return Optional.of(FilterApi.and(l.get(), r.get()));
    }
    return l.isPresent() ? l : r;
  }

  /** A disjunction: a side that cannot be expressed could match anything, so both must convert. */
  private Optional<FilterPredicate> disjunction(BoundNode left, BoundNode right, boolean negated) {
    Optional<FilterPredicate> l = convert(left, negated);
    if (l.isEmpty()) {
      return l;
    }
    Optional<FilterPredicate> r = convert(right, negated);
    return r.map(p -> FilterApi.or(l.get(), p));
  }

  private Optional<FilterPredicate> compare(BoundNode.Compare c, boolean negated) {
    if (c.literal() == null || !pushable(c.column())) {
      // A null literal makes the comparison constant (false, or true when negated): nothing useful to push.
      return Optional.empty();
    }
    Op op = negated ? c.op().negate() : c.op();
    Optional<FilterPredicate> leaf = leaf(c.column(), op, c.literal());
    if (!negated || op == Op.NE) {
      // Parquet's notEq keeps nulls, as the negated comparison does.
      return leaf;
    }
    // A negated comparison also holds where the value is null.
    return leaf.flatMap(p -> nullCheck(c.column(), true).map(n -> FilterApi.or(p, n)));
  }

  private Optional<FilterPredicate> in(BoundNode.In in, boolean negated) {
    BoundColumn column = in.column();
    if (in.literals().isEmpty() || !pushable(column)) {
      return Optional.empty();
    }
    if (negated) {
      // not (x in (a, b)) holds for null x; notEq keeps nulls. Parquet's notIn is not used: its statistics
      // filter never drops anything.
      FilterPredicate out = null;
      for (Object literal : in.literals()) {
        FilterPredicate ne = leaf(column, Op.NE, literal).orElse(null);
        if (ne == null) {
          return Optional.empty();
        }
        out = out == null ? ne : FilterApi.and(out, ne);
      }
      return Optional.ofNullable(out);
    }
    return switch (column.kind()) {
      case BOOLEAN -> Optional.of(FilterApi.in(FilterApi.booleanColumn(column.name()), set(in.literals(), Boolean.class)));
      case FLOAT -> Optional.of(FilterApi.in(FilterApi.floatColumn(column.name()), set(in.literals(), Float.class)));
      case DOUBLE -> Optional.of(FilterApi.in(FilterApi.doubleColumn(column.name()), set(in.literals(), Double.class)));
      case STRING, ENUM -> Optional.of(FilterApi.in(FilterApi.binaryColumn(column.name()), binaries(in.literals())));
      default -> column.kind().intBacked()
          ? Optional.of(FilterApi.in(FilterApi.intColumn(column.name()), set(in.literals(), Integer.class)))
          : Optional.of(FilterApi.in(FilterApi.longColumn(column.name()), set(in.literals(), Long.class)));
    };
  }

  private Optional<FilterPredicate> nullCheck(BoundColumn column, boolean isNull) {
    if (!pushable(column)) {
      return Optional.empty();
    }
    String path = column.name();
    ColumnKind kind = column.kind();
    FilterPredicate p;
    if (kind == ColumnKind.BOOLEAN) {
      Operators.BooleanColumn col = FilterApi.booleanColumn(path);
      p = isNull ? FilterApi.eq(col, null) : FilterApi.notEq(col, null);
    } else if (kind == ColumnKind.FLOAT) {
      Operators.FloatColumn col = FilterApi.floatColumn(path);
      p = isNull ? FilterApi.eq(col, null) : FilterApi.notEq(col, null);
    } else if (kind == ColumnKind.DOUBLE) {
      Operators.DoubleColumn col = FilterApi.doubleColumn(path);
      p = isNull ? FilterApi.eq(col, null) : FilterApi.notEq(col, null);
    } else if (kind.isText()) {
      Operators.BinaryColumn col = FilterApi.binaryColumn(path);
      p = isNull ? FilterApi.eq(col, null) : FilterApi.notEq(col, null);
    } else if (kind.intBacked()) {
      Operators.IntColumn col = FilterApi.intColumn(path);
      p = isNull ? FilterApi.eq(col, null) : FilterApi.notEq(col, null);
    } else {
      Operators.LongColumn col = FilterApi.longColumn(path);
      p = isNull ? FilterApi.eq(col, null) : FilterApi.notEq(col, null);
    }
    return Optional.of(p);
  }

  /** {@code column op literal} for a non-null literal. */
  private static Optional<FilterPredicate> leaf(BoundColumn column, Op op, Object literal) {
    String path = column.name();
    ColumnKind kind = column.kind();
    if (kind == ColumnKind.BOOLEAN) {
      Operators.BooleanColumn col = FilterApi.booleanColumn(path);
      Boolean v = (Boolean) literal;
      return Optional.of(op == Op.EQ ? FilterApi.eq(col, v) : FilterApi.notEq(col, v));
    }
    if (kind == ColumnKind.FLOAT) {
      return Optional.of(ordered(FilterApi.floatColumn(path), op, (Float) literal));
    }
    if (kind == ColumnKind.DOUBLE) {
      return Optional.of(ordered(FilterApi.doubleColumn(path), op, (Double) literal));
    }
    if (kind == ColumnKind.STRING || kind == ColumnKind.ENUM) {
      return Optional.of(ordered(FilterApi.binaryColumn(path), op, Binary.fromString(((TextValue) literal).text())));
    }
    if (kind.intBacked()) {
      return Optional.of(ordered(FilterApi.intColumn(path), op, (Integer) literal));
    }
    return Optional.of(ordered(FilterApi.longColumn(path), op, (Long) literal));
  }

  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt> FilterPredicate
      ordered(C col, Op op, T v) {
    return switch (op) {
      case EQ -> FilterApi.eq(col, v);
      case NE -> FilterApi.notEq(col, v);
      case LT -> FilterApi.lt(col, v);
      case LE -> FilterApi.ltEq(col, v);
      case GT -> FilterApi.gt(col, v);
      case GE -> FilterApi.gtEq(col, v);
    };
  }

  private static <T> Set<T> set(List<Object> literals, Class<T> type) {
    Set<T> out = new HashSet<>();
    for (Object literal : literals) {
      out.add(type.cast(literal));
    }
    return out;
  }

  private static Set<Binary> binaries(List<Object> literals) {
    Set<Binary> out = new HashSet<>();
    for (Object literal : literals) {
      out.add(Binary.fromString(((TextValue) literal).text()));
    }
    return out;
  }

  /**
   * Whether leaves on this column can be pushed: a primitive Parquet type Sluice knows (not decimal, whose
   * physical type varies, nor UUID, which may be stored as 16 raw bytes), and, when the file's schema is known,
   * present in the file with that physical type. A column missing from the file is not pushed: Parquet would
   * read it as all nulls while the reader may fill in a default value.
   */
  private boolean pushable(BoundColumn column) {
    PrimitiveTypeName expected = physicalType(column.kind());
    if (expected == null) {
      return false;
    }
    if (fileSchema == null) {
      return true;
    }
    String[] path = column.name().split("\\.");
    if (!fileSchema.containsPath(path)) {
      return false;
    }
    Type type = fileSchema.getType(path);
    return type.isPrimitive() && type.asPrimitiveType().getPrimitiveTypeName() == expected
        && type.getRepetition() != Type.Repetition.REPEATED;
  }

  private static PrimitiveTypeName physicalType(ColumnKind kind) {
    return switch (kind) {
      case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
      case FLOAT -> PrimitiveTypeName.FLOAT;
      case DOUBLE -> PrimitiveTypeName.DOUBLE;
      case STRING, ENUM -> PrimitiveTypeName.BINARY;
      case UUID, DECIMAL, OTHER -> null;
      default -> kind.intBacked() ? PrimitiveTypeName.INT32 : PrimitiveTypeName.INT64;
    };
  }
}
