package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression.Op;
import dev.sluice.api.Expression;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.error.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Resolves an {@link Expression}'s columns against an Avro record schema and converts its literals to the
 * columns' types, giving a {@link BoundExpression}.
 *
 * <p>Columns match field names exactly, or else case-insensitively when exactly one field matches. Nested
 * fields are reached through records, including nullable ones ({@code ["null", record]}). Literals convert
 * by the column's type: a whole number to int, long, float, double or decimal; a decimal number to float,
 * double or decimal; a quoted string to a date, time, timestamp, UUID, enum symbol, number or boolean when it
 * spells one (see {@link LiteralCoercion}). A timestamp literal with finer precision than its column is
 * truncated to the column's unit.
 */
public final class ExpressionBinder {
  private static final int MAX_LISTED_COLUMNS = 50;

  private final Schema schema;
  private final Map<String, BoundColumn> columns = new HashMap<>();

  private ExpressionBinder(Schema schema) {
    this.schema = schema;
  }

  /**
   * Binds {@code expression} to {@code schema}.
   *
   * @throws SluiceException (BAD_CONFIG) naming an unknown column and the available ones, or a literal that
   *     does not convert to its column's type
   */
  public static BoundExpression bind(Expression expression, Schema schema) {
    if (schema.getType() != Schema.Type.RECORD) {
      throw Errors.badRequest(ExpressionText.WHAT, "the schema to filter is a " + schema.getType()
          + ", not a record", "Filter a table or file whose schema is a record.");
    }
    ExpressionBinder binder = new ExpressionBinder(schema);
    BoundNode root = binder.node(expression);
    return new BoundExpression(expression, schema, root);
  }

  private BoundNode node(Expression e) {
    if (e instanceof Expression.Comparison c) {
      BoundColumn column = comparable(c.column(), c.op());
      return new BoundNode.Compare(column, c.op(), literal(column, c.literal()));
    }
    if (e instanceof Expression.In in) {
      BoundColumn column = comparable(in.column(), Op.EQ);
      List<Object> values = new ArrayList<>();
      for (Object literal : in.literals()) {
        Object v = literal(column, literal);
        if (v != null) {
          values.add(v);
        }
      }
      return new BoundNode.In(column, List.copyOf(values));
    }
    if (e instanceof Expression.IsNull n) {
      return new BoundNode.NullCheck(resolve(n.column()), true);
    }
    if (e instanceof Expression.IsNotNull n) {
      return new BoundNode.NullCheck(resolve(n.column()), false);
    }
    if (e instanceof Expression.And a) {
      return new BoundNode.And(node(a.left()), node(a.right()));
    }
    if (e instanceof Expression.Or o) {
      return new BoundNode.Or(node(o.left()), node(o.right()));
    }
    if (e instanceof Expression.Not n) {
      return new BoundNode.Not(node(n.operand()));
    }
    throw Errors.internal("unknown expression type " + e.getClass().getName(), null);
  }

  /** Resolves a column that a comparison or in-list uses, checking the operator suits its type. */
  private BoundColumn comparable(String name, Op op) {
    BoundColumn column = resolve(name);
    if (column.kind() == ColumnKind.OTHER) {
      throw Errors.badRequest(ExpressionText.WHAT, "column '" + column.name() + "' has type " + typeName(column)
          + ", which cannot be compared", "Only 'is null' and 'is not null' apply to it.");
    }
    if (op != Op.EQ && op != Op.NE && !column.kind().ordered()) {
      throw Errors.badRequest(ExpressionText.WHAT, "column '" + column.name() + "' is " + typeName(column)
          + ", which has no order for " + op.symbol(), "Use =, != or in.");
    }
    return column;
  }

  private Object literal(BoundColumn column, Object literal) {
    Object v = LiteralCoercion.coerce(column.kind(), column.enumSymbols(), literal);
    if (v == LiteralCoercion.INVALID) {
      throw Errors.badRequest(ExpressionText.WHAT, "column '" + column.name() + "' is " + typeName(column)
          + " and the literal " + ExpressionText.literal(literal) + " is not a value of that type",
          "Write " + LiteralCoercion.expected(column.kind(), column.enumSymbols()) + ".");
    }
    return v;
  }

  private static String typeName(BoundColumn column) {
    ColumnKind kind = column.kind();
    return kind == ColumnKind.OTHER ? column.type().getType().getName() : kind.display();
  }

  private BoundColumn resolve(String name) {
    BoundColumn cached = columns.get(name);
    if (cached != null) {
      return cached;
    }
    List<String> segments = ExpressionText.segments(name);
    List<Schema.Field> path = new ArrayList<>();
    List<Schema> records = new ArrayList<>();
    Schema current = schema;
    Schema type = null;
    for (int i = 0; i < segments.size(); i++) {
      if (i > 0 && current.getType() != Schema.Type.RECORD) {
        throw Errors.badRequest(ExpressionText.WHAT, "column '" + name + "' reaches into '" + path.get(i - 1).name()
            + "', which is a " + current.getType().getName() + ", not a record",
            "Only fields of records can be named with dots.");
      }
      Schema.Field field = field(current, segments.get(i));
      if (field == null) {
        throw unknownColumn(name);
      }
      path.add(field);
      records.add(current);
      type = withoutNull(field.schema());
      current = type;
    }
    BoundColumn column = new BoundColumn(path, records, type);
    columns.put(name, column);
    return column;
  }

  private static Schema.Field field(Schema record, String name) {
    Schema.Field exact = record.getField(name);
    if (exact != null) {
      return exact;
    }
    Schema.Field match = null;
    for (Schema.Field f : record.getFields()) {
      if (f.name().equalsIgnoreCase(name)) {
        if (match != null) {
          return null; // ambiguous: the user must spell the case
        }
        match = f;
      }
    }
    return match;
  }

  /** {@code ["null", T]} (either order) is T; other unions stay unions. */
  static Schema withoutNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    Schema only = null;
    for (Schema branch : s.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        if (only != null) {
          return s;
        }
        only = branch;
      }
    }
    return only == null ? s : only;
  }

  private SluiceException unknownColumn(String name) {
    List<String> available = new ArrayList<>();
    listColumns(schema, "", available, 0);
    String list = available.size() > MAX_LISTED_COLUMNS
        ? String.join(", ", available.subList(0, MAX_LISTED_COLUMNS)) + ", ..."
        : String.join(", ", available);
    return Errors.badRequest(ExpressionText.WHAT, "unknown column '" + name + "'", "Available columns: " + list + ".");
  }

  private static void listColumns(Schema record, String prefix, List<String> out, int depth) {
    for (Schema.Field f : record.getFields()) {
      if (out.size() > MAX_LISTED_COLUMNS) {
        return;
      }
      out.add(prefix + f.name());
      Schema type = withoutNull(f.schema());
      // Depth bound guards against recursive schemas.
      if (type.getType() == Schema.Type.RECORD && depth < 8) {
        listColumns(type, prefix + f.name() + ".", out, depth + 1);
      }
    }
  }
}
