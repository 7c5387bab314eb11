/**
 * The benchmark's data, shared by the Sluice and the Hudi side so both see the same keys, values and order: {@code
 * BenchRecords} (the record schema and its values), {@code Workloads} (every batch derived from one seed) and
 * {@code Mix} (SplitMix64, the one source of randomness).
 */
package dev.sluice.bench.data;
