/**
 * Merge-on-Read compaction in Hudi 0.15's format: {@link dev.sluice.internal.compact.Compaction} schedules plans
 * ({@code <ts>.compaction.requested}, Avro {@code HoodieCompactionPlan}) and runs them (each planned file slice's base
 * file merged with its log files into a new base file at the compaction instant, completed as {@code <ts>.commit}
 * with operation COMPACT); {@link dev.sluice.internal.service.Compactor} runs them on a background thread.
 */
package dev.sluice.internal.compact;
