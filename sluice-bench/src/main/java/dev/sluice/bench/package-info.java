/**
 * The benchmark driver behind {@code bin/sluice-bench}: {@code BenchDriver} runs each workload's steps on Sluice
 * ({@code SluiceWorker}, {@code SluiceBenchEngine} through the public API), on Apache Hudi 0.15.0 (hudi-oracle's
 * {@code BenchWorker}) and on the raw-file floor ({@code FloorSteps}), each in a fresh child JVM ({@code
 * ChildJvm}), and {@code BenchResults} prints the medians and {@code RESULT} lines; {@code JfrTop} summarizes JFR
 * recordings. {@code CliBench} ({@code --cli}) times the command line as whole {@code bin/sluice} processes beside
 * the same command lines run in one warmed JVM ({@code CliInJvm}).
 */
package dev.sluice.bench;
