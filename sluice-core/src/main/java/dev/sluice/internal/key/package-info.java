/**
 * Record keys and partition paths computed exactly as Hudi's Simple, Complex and Nonpartitioned key generators do
 * ({@code KeyGenerator}), from possibly nested fields read by position ({@code FieldPath}). The write path computes
 * every incoming record's key and partition path with it; deletes by key use the same rules. {@code PartitionPaths}
 * refuses partition values that would not be a folder inside the table (or escapes them as Hudi does with
 * URL-encoding on); {@code ComplexKeys} finds complex keys whose encoding another key shares.
 */
package dev.sluice.internal.key;
