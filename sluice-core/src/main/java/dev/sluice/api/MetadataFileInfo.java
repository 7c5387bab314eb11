package dev.sluice.api;

/**
 * A file as the metadata table lists it.
 *
 * @param name the file name (no directory)
 * @param size its size in bytes as recorded
 */
public record MetadataFileInfo(String name, long size) {
}
