/**
 * Row predicates for queries: {@link dev.sluice.api.Expression} (built with
 * {@link dev.sluice.api.Expressions} or parsed from {@code --where} text by
 * {@link dev.sluice.api.ExpressionParser}), bound to an Avro schema by
 * {@link dev.sluice.internal.read.expr.ExpressionBinder}. The resulting {@link dev.sluice.internal.read.expr.BoundExpression} is used
 * three ways: pruning partitions from their path values, pushing a safe (never row-dropping) filter into Parquet
 * statistics, and filtering records exactly.
 *
 * <p>Null semantics are two-valued throughout: a comparison with null is false and {@code not} negates it.
 */
package dev.sluice.internal.read.expr;
