package dev.sluice.internal.basefile;

import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.filter2.predicate.UserDefinedPredicate;

/** The top-level fields a Parquet filter reads; record-level filtering needs them decoded. */
final class FilterColumns {
  private FilterColumns() {
  }

  /** Top-level field names used by {@code filter}; empty for no filter or a non-predicate filter. */
  static Set<String> of(FilterCompat.Filter filter) {
    Set<String> out = new LinkedHashSet<>();
    if (filter instanceof FilterCompat.FilterPredicateCompat p) {
      p.getFilterPredicate().accept(new Collector(out));
    }
    return out;
  }

  private static final class Collector implements FilterPredicate.Visitor<Void> {
    private final Set<String> out;

    Collector(Set<String> out) {
      this.out = out;
    }

    private Void add(Operators.Column<?> column) {
      out.add(column.getColumnPath().toArray()[0]);
      return null;
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Eq<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.NotEq<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Lt<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.LtEq<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Gt<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.GtEq<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.In<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.NotIn<T> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>> Void visit(Operators.Contains<T> p) {
      return add(p.getColumn());
    }

    @Override
    public Void visit(Operators.And and) {
      and.getLeft().accept(this);
      return and.getRight().accept(this);
    }

    @Override
    public Void visit(Operators.Or or) {
      or.getLeft().accept(this);
      return or.getRight().accept(this);
    }

    @Override
    public Void visit(Operators.Not not) {
      return not.getPredicate().accept(this);
    }

    @Override
    public <T extends Comparable<T>, U extends UserDefinedPredicate<T>> Void visit(Operators.UserDefined<T, U> p) {
      return add(p.getColumn());
    }

    @Override
    public <T extends Comparable<T>, U extends UserDefinedPredicate<T>> Void visit(
        Operators.LogicalNotUserDefined<T, U> p) {
      return add(p.getUserDefined().getColumn());
    }
  }
}
