package dev.sluice.internal.log;

import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the corrupt blocks that readers of a file slice skip without a rollback accounting for them, from block
 * headers alone (the health checks behind {@code sluice files} and {@code sluice stats}). A block whose framing holds
 * but whose content is damaged is only found by decoding it (a query fails on it; {@code sluice repair} decodes).
 */
public final class LogDamage {
  private LogDamage() {
  }

  /**
   * The corrupt blocks of {@code files} (one slice's logs) that stay pending to the end of a scan, as {@link LogScanner}
   * counts them: a rollback command block accounts for every corrupt block before it in the slice.
   */
  public static List<SkippedBlock> skipped(Storage storage, List<LogFile> files, Timeline timeline) {
    Timeline completed = timeline.commitsTimeline().completed();
    List<LogFile> ordered = new ArrayList<>(files);
    ordered.sort(null);
    List<CorruptAt> pending = new ArrayList<>();
    for (LogFile f : ordered) {
      try (LogReader reader = LogReader.openLenient(storage, f.path())) {
        while (reader.hasNext()) {
          LogBlock b = reader.next();
          if (b instanceof CorruptBlock c) {
            pending.add(new CorruptAt(f.path(), c));
          } else if (b instanceof CommandBlock cmd && cmd.isRollback()) {
            pending.clear();
          }
        }
      }
    }
    List<SkippedBlock> out = new ArrayList<>();
    for (CorruptAt c : pending) {
      Optional<String> instant = LogReader.headerInstant(storage, c.path(), c.block().offset());
      out.add(new SkippedBlock(c.path(), c.block().offset(), c.block().length(), instant,
          instant.filter(completed::containsOrBeforeStart).isPresent()));
    }
    return out;
  }

  private record CorruptAt(String path, CorruptBlock block) {
  }
}
