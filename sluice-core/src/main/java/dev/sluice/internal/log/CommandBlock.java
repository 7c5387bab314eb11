package dev.sluice.internal.log;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A command block ({@code HoodieCommandBlock}): no content, the meaning is in the header. The only command is a
 * rollback ({@code COMMAND_BLOCK_TYPE = "0"}) of the blocks written by {@code TARGET_INSTANT_TIME}.
 *
 * @param header header entries
 * @param span where the block lies, if read from a file
 */
public record CommandBlock(Map<HeaderKey, String> header, Optional<BlockSpan> span) implements LogBlock {
  /** {@code COMMAND_BLOCK_TYPE} of a rollback ({@code HoodieCommandBlockTypeEnum.ROLLBACK_BLOCK}). */
  public static final String ROLLBACK = "0";

  /** Copies the header. */
  public CommandBlock {
    header = LogFormat.copyHeader(header);
    Objects.requireNonNull(span, "span");
  }

  /** A command block to write. */
  public CommandBlock(Map<HeaderKey, String> header) {
    this(header, Optional.empty());
  }

  /**
   * A rollback command as Hudi's rollback writes it: {@code INSTANT_TIME} = the instant doing the rollback (Hudi
   * uses the latest instant on the active timeline), {@code TARGET_INSTANT_TIME} = the instant rolled back.
   */
  public static CommandBlock rollback(String instantTime, String targetInstant) {
    Map<HeaderKey, String> h = new EnumMap<>(HeaderKey.class);
    h.put(HeaderKey.INSTANT_TIME, instantTime);
    h.put(HeaderKey.TARGET_INSTANT_TIME, targetInstant);
    h.put(HeaderKey.COMMAND_BLOCK_TYPE, ROLLBACK);
    return new CommandBlock(h);
  }

  @Override
  public LogBlockType type() {
    return LogBlockType.COMMAND_BLOCK;
  }

  /** True if this is a rollback command. */
  public boolean isRollback() {
    return ROLLBACK.equals(header.get(HeaderKey.COMMAND_BLOCK_TYPE));
  }

  /** The instant the command applies to. */
  public Optional<String> targetInstant() {
    return Optional.ofNullable(header.get(HeaderKey.TARGET_INSTANT_TIME));
  }
}
