/**
 * Bloom filters over record keys in the layouts Hudi stores in base file footers (simple and dynamic, Hadoop's
 * Murmur and Jenkins hashes). Base file writers add every key to a filter sized by {@code BloomFilters}; on the
 * write path the index ({@code index.BloomCandidates}) reads a file's filter back to rule keys out before checking
 * the file's key column.
 */
package dev.sluice.internal.bloom;
