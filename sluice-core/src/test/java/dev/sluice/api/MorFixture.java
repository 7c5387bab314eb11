package dev.sluice.api;

import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.log.LogDump;
import dev.sluice.internal.log.LogDump.BlockSummary;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Helpers of the Merge-on-Read end-to-end tests: table specs, data file listings, commit metadata. */
final class MorFixture {
  private MorFixture() {
  }

  /** A MoR table of trips partitioned by part, event-time ordering. */
  static TableSpec.Builder spec() {
    return TripFixture.spec().type(TableType.MERGE_ON_READ);
  }

  /** Every data file (base and log) under the table, relative path → content. */
  static Map<String, byte[]> dataFiles(Path table) {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(table)) {
      for (Path p : walk.filter(Files::isRegularFile).collect(Collectors.toList())) {
        String rel = table.relativize(p).toString();
        if (rel.startsWith(".hoodie") || !FileNames.isDataFileCandidate(p.getFileName().toString())) {
          continue;
        }
        out.put(rel, Files.readAllBytes(p));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Relative paths of the table's base files. */
  static List<String> baseFiles(Path table) {
    return dataFiles(table).keySet().stream().filter(p -> p.endsWith(".parquet")).toList();
  }

  /** Relative paths of the table's log files. */
  static List<String> logFiles(Path table) {
    return dataFiles(table).keySet().stream().filter(p -> FileNames.parseLog(Path.of(p).getFileName().toString())
        .isPresent()).toList();
  }

  /** The blocks of a log file. */
  static List<BlockSummary> blocks(Path table, String relative) {
    return LogDump.list(new LocalStorage(), table.resolve(relative).toString());
  }

  /** The completed commit metadata of {@code instant}. */
  static CommitMetadata metadata(Table t, String instant) {
    TimelineStore store = new TimelineStore(t.storage(), t.location());
    Instant i = t.timeline().find(instant).orElseThrow();
    return store.readCommitMetadata(i).orElseThrow();
  }
}
