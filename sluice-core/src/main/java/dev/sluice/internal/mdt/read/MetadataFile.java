package dev.sluice.internal.mdt.read;

/**
 * A live file as the metadata table lists it.
 *
 * @param name the file name (no directory)
 * @param size its size in bytes as recorded
 */
public record MetadataFile(String name, long size) {
}
