package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.schema.MessageType;

/**
 * An {@link Expression} bound to a schema by {@link ExpressionBinder}: evaluates exactly on records, prunes
 * partitions, and converts to a Parquet filter for statistics pushdown. Immutable and safe to share between
 * threads.
 *
 * <p>Null semantics (everywhere): a comparison or {@code in} is false when the value or literal is null;
 * {@code not} negates, so {@code not (x > 5)} is true for a null {@code x}.
 */
public final class BoundExpression implements Predicate<GenericRecord> {
  private final Expression expression;
  private final Schema schema;
  private final BoundNode root;
  private final List<Conjunct> conjuncts;
  private final Set<String> columns;

  /**
   * A part of the top-level conjunction, after pushing negations through and/or.
   *
   * @param node the expression part
   * @param negated whether the part is {@code not node}
   * @param columns the columns it reads
   */
  private record Conjunct(BoundNode node, boolean negated, Set<BoundColumn> columns) {
  }

  BoundExpression(Expression expression, Schema schema, BoundNode root) {
    this.expression = expression;
    this.schema = schema;
    this.root = root;
    List<Conjunct> parts = new ArrayList<>();
    split(root, false, parts);
    this.conjuncts = List.copyOf(parts);
    Set<BoundColumn> cols = new LinkedHashSet<>();
    root.collectColumns(cols);
    Set<String> names = new LinkedHashSet<>();
    cols.forEach(c -> names.add(c.name()));
    this.columns = Collections.unmodifiableSet(names);
  }

  private static void split(BoundNode node, boolean negated, List<Conjunct> out) {
    if (node instanceof BoundNode.Not n) {
      split(n.operand(), !negated, out);
    } else if (!negated && node instanceof BoundNode.And a) {
      split(a.left(), false, out);
      split(a.right(), false, out);
    } else if (negated && node instanceof BoundNode.Or o) {
      // not (a or b) = not a and not b
      split(o.left(), true, out);
      split(o.right(), true, out);
    } else {
      Set<BoundColumn> cols = new LinkedHashSet<>();
      node.collectColumns(cols);
      out.add(new Conjunct(node, negated, Set.copyOf(cols)));
    }
  }

  /** The expression as given to the binder. */
  public Expression expression() {
    return expression;
  }

  /** The schema the expression is bound to. */
  public Schema schema() {
    return schema;
  }

  /** The columns read, as resolved dotted paths spelled as in the schema. */
  public Set<String> columns() {
    return columns;
  }

  /**
   * Evaluates the expression on a record of the bound schema (or of another schema with the same field names:
   * fields are then found by name). Strings may be {@link org.apache.avro.util.Utf8} or {@link String};
   * dates, times and timestamps may be their Avro numbers or {@code java.time} values; decimals may be bytes,
   * fixed or {@link java.math.BigDecimal}.
   *
   * @throws dev.sluice.api.SluiceException (BAD_INPUT) if a value's Java type does not fit its schema type
   */
  @Override
  public boolean test(GenericRecord record) {
    return root.eval(column -> column.read(record));
  }

  /**
   * A Parquet filter keeping at least every row this expression matches, for row-group and page skipping; empty
   * when no part of the expression converts. Assumes the file's columns have the Parquet types parquet-avro
   * writes for the bound schema; use {@link #toParquet(MessageType)} when a file may have been written with an
   * older schema. Rows the filter keeps must still be checked with {@link #test}.
   */
  public Optional<FilterPredicate> toParquet() {
    return ParquetPushdown.convert(root, null);
  }

  /**
   * Like {@link #toParquet()}, leaving out leaves on columns that are missing from {@code fileSchema} or have
   * another physical type there (e.g. an int column promoted to long since the file was written).
   */
  public Optional<FilterPredicate> toParquet(MessageType fileSchema) {
    return ParquetPushdown.convert(root, fileSchema);
  }

  /**
   * Whether a partition with these values might hold a matching row. Evaluates only the top-level conjuncts
   * whose columns are all keys of {@code partitionValues} (resolved column names, e.g. {@code region}); a value
   * is the text from the partition path, converted to the column's type (null for a null partition value). A
   * conjunct whose value does not convert is unknown, and unknown keeps the partition.
   *
   * @param partitionValues partition field name to its value from the path (values may be null)
   * @return false only if no row of the partition can match
   */
  public boolean mightMatchPartition(Map<String, String> partitionValues) {
    for (Conjunct conjunct : conjuncts) {
      Map<BoundColumn, Object> values = partitionValues(conjunct, partitionValues);
      if (values != null && conjunct.node().eval(values::get) == conjunct.negated()) {
        return false;
      }
    }
    return true;
  }

  /** The converted values of the conjunct's columns, or null if one is not a partition column or not convertible. */
  private static Map<BoundColumn, Object> partitionValues(Conjunct conjunct, Map<String, String> partitionValues) {
    Map<BoundColumn, Object> values = new HashMap<>();
    for (BoundColumn column : conjunct.columns()) {
      if (!partitionValues.containsKey(column.name())) {
        return null;
      }
      String text = partitionValues.get(column.name());
      Object value = LiteralCoercion.coerce(column.kind(), column.enumSymbols(), text);
      if (value == LiteralCoercion.INVALID) {
        return null;
      }
      // Canonical text literals are TextValues; a record's value would be a CharSequence.
      values.put(column, value instanceof TextValue t ? t.text() : value);
    }
    return values;
  }

  @Override
  public String toString() {
    return expression.toString();
  }
}
