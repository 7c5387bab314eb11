package dev.sluice.internal.mdt.read;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.CorruptBlock;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.Storage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * The log blocks of one metadata-table file slice that a Hudi reader applies, oldest first
 * ({@code AbstractHoodieLogRecordReader.scanInternalV1} with the metadata table's instant filter):
 * <ol>
 *   <li>a block whose instant is after the metadata table's latest completed instant ends the scan (Hudi 0.15) or
 *       is skipped (Hudi 1.x, {@link TrustRules#stopsAtLaterBlock});</li>
 *   <li>data and delete blocks count only if their instant is in the {@link ValidInstants} set and, for Hudi 0.15,
 *       a completed commit or deltacommit of the metadata table (or older than its timeline), not inflight (Hudi
 *       1.x's view has already dropped the log files of deltacommits that did not complete,
 *       {@link TrustRules#checksBlockCommitted});</li>
 *   <li>a rollback command block drops the blocks of its target instant read so far, and pending corrupt blocks.</li>
 * </ol>
 * Only headers are read here; contents are read when the blocks are applied.
 */
final class MetadataLogBlocks {
  private MetadataLogBlocks() {
  }

  /** The trusted data and delete blocks of {@code logFiles}, in log order. */
  static List<LogBlock> trusted(Storage storage, List<LogFile> logFiles, Timeline metadataTimeline, String latestInstant,
      Set<String> valid, TrustRules rules) {
    Timeline commits = metadataTimeline.commitsTimeline();
    Timeline completed = commits.completed();
    Timeline inflight = commits.filter(Instant::isInflight);
    List<LogFile> files = new ArrayList<>(logFiles);
    files.sort(null);
    Deque<LogBlock> pending = new ArrayDeque<>();
    scan:
    for (LogFile file : files) {
      try (LogReader reader = LogReader.open(storage, file)) {
        while (reader.hasNext()) {
          LogBlock block = reader.next();
          if (block instanceof CorruptBlock) {
            pending.addLast(block);
            continue;
          }
          String instant = block.instantTime().orElseThrow(() -> Errors.badTable(file.path(),
              "a " + block.type() + " of the metadata table has no INSTANT_TIME header",
              "Rebuild the metadata table (delete .hoodie/metadata; a Hudi writer rebuilds it)."));
          boolean later = InstantTimes.isBefore(latestInstant, instant);
          if (later && rules.stopsAtLaterBlock()) {
            // Hudi 0.15 stops the whole scan here: the metadata table has one writer, so later blocks are later
            break scan;
          }
          if (block instanceof CommandBlock command) {
            rollback(command, pending, file);
            continue;
          }
          if (later) {
            // Hudi 1.x skips only this data or delete block
            continue;
          }
          boolean uncommitted = rules.checksBlockCommitted()
              && (!completed.containsOrBeforeStart(instant) || inflight.contains(instant));
          if (uncommitted || !valid.contains(instant)) {
            continue;
          }
          pending.addLast(block);
        }
      }
    }
    List<LogBlock> out = new ArrayList<>();
    for (LogBlock b : pending) {
      // corrupt blocks no rollback removed are ignored, as Hudi does
      if (b instanceof DataBlock || b instanceof DeleteBlock) {
        out.add(b);
      }
    }
    return out;
  }

  private static void rollback(CommandBlock command, Deque<LogBlock> pending, LogFile file) {
    if (!command.isRollback()) {
      throw Errors.unsupported("The command block type '" + command.header().get(HeaderKey.COMMAND_BLOCK_TYPE) + "' in "
          + file.path(), "Only rollback commands (type 0) exist in Hudi 0.15.");
    }
    String target = command.targetInstant().orElseThrow(() -> Errors.badTable(file.path(),
        "a rollback command block has no TARGET_INSTANT_TIME header",
        "Rebuild the metadata table (delete .hoodie/metadata; a Hudi writer rebuilds it)."));
    pending.removeIf(b -> b instanceof CorruptBlock || target.equals(b.instantTime().orElse(null)));
  }
}
