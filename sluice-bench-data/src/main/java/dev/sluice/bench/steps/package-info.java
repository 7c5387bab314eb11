/**
 * One benchmark step on either engine: {@code StepRunner} generates the inputs, warms up, times the call on an
 * {@code Engine} (Sluice's or Hudi's implementation), checks the table afterwards and prints the report; {@code
 * Profile} records the timed span with JFR when asked.
 */
package dev.sluice.bench.steps;
