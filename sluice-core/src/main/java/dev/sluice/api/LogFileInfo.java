package dev.sluice.api;

/**
 * A log file of a Merge-on-Read file slice.
 *
 * @param path its full path
 * @param fileName its name
 * @param size bytes
 */
public record LogFileInfo(String path, String fileName, long size) {
}
