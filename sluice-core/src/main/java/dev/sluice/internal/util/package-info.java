/**
 * Small shared tools: {@code CloseableIterator}, the iterator type of every read; {@code Parallel} and {@code
 * ParallelConcat}, which run file-group tasks and slice reads on bounded threads; {@code KeySort}, the radix sort
 * of keys used by planning and tagging; {@code KillPoints}, the named points where the crash tests stop the JVM;
 * {@code Positioned}, input that knows the file and line of its last record.
 */
package dev.sluice.internal.util;
