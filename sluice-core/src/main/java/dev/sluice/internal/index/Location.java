package dev.sluice.internal.index;

/**
 * Where a record key lives now: a file group and the instant of its current base file.
 *
 * @param partitionPath relative partition path
 * @param fileId file group id
 * @param baseInstant instant time of the base file that holds the key
 */
public record Location(String partitionPath, String fileId, String baseInstant) {
}
