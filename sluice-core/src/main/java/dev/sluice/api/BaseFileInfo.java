package dev.sluice.api;

/**
 * A base (Parquet) file.
 *
 * @param path its full path
 * @param fileName its name
 * @param size bytes
 */
public record BaseFileInfo(String path, String fileName, long size) {
}
