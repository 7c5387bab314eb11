/**
 * The public API, the only package of sluice-core that applications and front ends (the CLI, sluice-tools, the
 * benchmarks) program against. {@code Tables} creates ({@code TableSpec}) or opens a table; {@code Table} writes Avro
 * records (insert, upsert, delete, bulk insert, each returning a {@code CommitResult}), starts scans ({@code Scan},
 * {@code ScanOptions}, {@code Expressions}), answers point lookups ({@code Lookup}), runs the table services
 * ({@code clean}, {@code archive}, {@code compaction()}, {@code rollback}, {@code savepoint}, {@code restore}) and
 * describes itself through {@code inspect()} as read-only info records ({@code InstantInfo}, {@code FileGroupInfo},
 * {@code CommitInfo}, ...). Options are {@code Config} with Hudi's key names ({@code ConfigKeys}); every failure is a
 * {@code SluiceException} with a {@code Kind}. Nothing here exposes an {@code internal} type: the layering test
 * ({@code ApiLayeringTest} in sluice-cli) keeps it so.
 */
package dev.sluice.api;
