/**
 * Record keys and partition paths computed exactly as Hudi's Simple, Complex and Nonpartitioned key generators do
 * ({@code KeyGenerator}), from possibly nested fields read by position ({@code FieldPath}). The write path computes
 * every incoming record's key and partition path with it; deletes by key use the same rules.
 */
package dev.sluice.internal.key;
