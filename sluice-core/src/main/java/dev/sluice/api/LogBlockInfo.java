package dev.sluice.api;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One block of a log file.
 *
 * @param type the block type ({@code AVRO_DATA_BLOCK}, {@code PARQUET_DATA_BLOCK}, {@code DELETE_BLOCK},
 *     {@code COMMAND_BLOCK}, ...)
 * @param instantTime the instant that wrote it, from its header
 * @param header the header entries by Hudi's header key name ({@code INSTANT_TIME}, {@code SCHEMA}, ...), in key order
 * @param records records in the block, when the header or the block says
 * @param offset position of the block in the file
 * @param size bytes of the block
 */
public record LogBlockInfo(String type, Optional<String> instantTime, Map<String, String> header, OptionalLong records,
    long offset, long size) {
}
