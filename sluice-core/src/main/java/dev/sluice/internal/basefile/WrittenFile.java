package dev.sluice.internal.basefile;

/**
 * A finished base file.
 *
 * @param path where it was written
 * @param sizeBytes file size in bytes
 * @param recordCount rows written
 * @param minKey smallest record key, or null if no rows were written
 * @param maxKey largest record key, or null if no rows were written
 */
public record WrittenFile(String path, long sizeBytes, long recordCount, String minKey, String maxKey) {
}
