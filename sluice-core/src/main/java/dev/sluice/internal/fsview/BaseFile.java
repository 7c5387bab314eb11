package dev.sluice.internal.fsview;

/**
 * A base (Parquet) file of a file slice.
 *
 * @param path full path
 * @param fileName file name
 * @param fileId file id
 * @param instantTime the instant that wrote it (the slice's base instant)
 * @param size size in bytes
 */
public record BaseFile(String path, String fileName, String fileId, String instantTime, long size) {
}
