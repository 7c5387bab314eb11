/**
 * SQL over Sluice tables ({@code sluice sql}, {@code sluice export}, and {@link dev.sluice.sql.SluiceSql} for
 * programs): DuckDB in-process, fed by the engine's scans ({@code dev.sluice.api.Scan}) as Arrow streams through the
 * Arrow C stream interface. The columns and simple conditions a statement needs are planned from DuckDB's own parse
 * tree ({@link dev.sluice.sql.QueryPlan}) and pushed into the scan. Uses the engine only through {@code dev.sluice.api}.
 */
package dev.sluice.sql;
