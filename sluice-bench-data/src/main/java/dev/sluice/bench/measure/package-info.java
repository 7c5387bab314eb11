/**
 * What a benchmark step measures besides time, the same code on both engines: {@code DirSnapshot} (bytes a step
 * created or appended), {@code HeapMeter} (peak heap from GC notifications), {@code StepArgs} (a worker's command
 * line) and {@code StepReport} (one measured step as a line on stdout); {@code Dirs} copies and deletes tables.
 */
package dev.sluice.bench.measure;
