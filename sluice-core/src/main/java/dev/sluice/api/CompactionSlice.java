package dev.sluice.api;

import dev.sluice.internal.compact.CompactionOperation;
import dev.sluice.internal.compact.SliceJob;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One operation (file slice) of a running compaction, as a cluster engine's task receives it: everything
 * {@link CompactionUnits#compact} needs to compact it as the single-machine compactor would, Java-serializable.
 * Made by {@link TableCompaction#runWith}; not built by hand.
 *
 * @param basePath the table's location
 * @param options the options the table was opened with (storage, file options, memory and spill settings)
 * @param instantTime the compaction instant (inflight while the tasks run)
 * @param index the operation's position in the plan
 * @param partitionPath the file group's relative partition path
 * @param fileId the file group's id
 * @param baseInstantTime the slice's base instant
 * @param dataFileName the slice's base file name; null for a log-only slice
 * @param deltaFileNames the slice's log file names, oldest first
 * @param metrics the plan's figures for the slice
 * @param schema the table schema without meta fields, as JSON
 * @param maxInstant the newest completed instant whose log blocks are merged
 * @param memoryBudget heap bytes for the slice's merged log records (beyond them they spill)
 */
public record CompactionSlice(String basePath, Map<String, String> options, String instantTime, int index,
    String partitionPath, String fileId, String baseInstantTime, String dataFileName, List<String> deltaFileNames,
    Map<String, Double> metrics, String schema, String maxInstant, long memoryBudget) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Copies the collections into serializable ones (keeping their order) and rejects nulls. */
  public CompactionSlice {
    Objects.requireNonNull(basePath, "basePath");
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    Objects.requireNonNull(instantTime, "instantTime");
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(baseInstantTime, "baseInstantTime");
    deltaFileNames = Collections.unmodifiableList(new ArrayList<>(deltaFileNames));
    metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(maxInstant, "maxInstant");
  }

  static List<CompactionSlice> of(String basePath, Map<String, String> options, SliceJob job) {
    List<CompactionSlice> out = new ArrayList<>(job.operations().size());
    for (CompactionOperation op : job.operations()) {
      out.add(new CompactionSlice(basePath, options, job.instant(), out.size(), op.partitionPath(), op.fileId(),
          op.baseInstantTime(), op.dataFileName().orElse(null), op.deltaFileNames(), op.metrics(), job.userSchema(),
          job.maxInstant(), job.memoryBudget()));
    }
    return out;
  }

  /** The engine's job of this one slice (its operation at index 0). */
  SliceJob job() {
    CompactionOperation op = new CompactionOperation(partitionPath, fileId, baseInstantTime,
        Optional.ofNullable(dataFileName), deltaFileNames, metrics);
    return new SliceJob(instantTime, List.of(op), schema, maxInstant, memoryBudget);
  }
}
