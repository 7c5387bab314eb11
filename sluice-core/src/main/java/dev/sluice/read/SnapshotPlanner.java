package dev.sluice.read;

import dev.sluice.basefile.MetaFields;
import dev.sluice.error.Errors;
import dev.sluice.fsview.BaseFile;
import dev.sluice.fsview.FileSystemView;
import dev.sluice.read.expr.BoundExpression;
import dev.sluice.read.expr.ExpressionBinder;
import dev.sluice.storage.Storage;
import dev.sluice.table.TableConfig;
import dev.sluice.timeline.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Plans snapshot and read-optimized scans over base files: timeline (cut at the as-of instant) → file-system
 * view → partitions pruned by the filter → the latest base file of every file group.
 */
public final class SnapshotPlanner {
  private final Storage storage;
  private final String basePath;
  private final TableConfig tableConfig;
  private final Schema userSchema;
  private final Timeline timeline;

  /** A planner over a loaded timeline. */
  public SnapshotPlanner(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema, Timeline timeline) {
    this.storage = storage;
    this.basePath = basePath;
    this.tableConfig = tableConfig;
    this.userSchema = userSchema;
    this.timeline = timeline;
  }

  /** Plans {@code options}. */
  public ScanPlan plan(ScanOptions options) {
    if (options.queryType() == QueryType.INCREMENTAL) {
      throw Errors.unsupported("The incremental query", "Use a snapshot query with --as-of for now.");
    }
    Schema full = MetaFields.withMetaFields(userSchema);
    Schema output = outputSchema(full, options);
    Optional<BoundExpression> bound = options.filter().map(e -> ExpressionBinder.bind(e, full));
    FileSystemView view = FileSystemView.of(storage, basePath, timeline);
    if (options.asOf().isPresent()) {
      String asOf = options.asOf().get();
      if (timeline.completed().firstInstant().map(i -> i.time().compareTo(asOf) > 0).orElse(true)) {
        throw Errors.badRequest("Time travel to " + asOf, "the table has no completed instant at or before it",
            "Pick an instant shown by 'sluice timeline'.");
      }
      view = view.asOf(asOf);
    }
    List<BaseFile> files = new ArrayList<>();
    for (String partition : view.partitions()) {
      if (bound.isPresent()) {
        Map<String, String> values = PartitionValues.parse(partition, tableConfig.partitionFields(),
            tableConfig.hiveStylePartitioning());
        if (!bound.get().mightMatchPartition(values)) {
          continue;
        }
      }
      files.addAll(view.latestBaseFiles(partition));
    }
    Set<String> filterColumns = options.filter().map(e -> e.columns()).orElse(Set.of());
    return new ScanPlan(storage, files, output, bound, ScanPlan.readColumns(output, bound, filterColumns), options.limit());
  }

  private static Schema outputSchema(Schema full, ScanOptions options) {
    List<Schema.Field> fields = new ArrayList<>();
    if (options.metaColumns()) {
      for (String m : MetaFields.ALL) {
        Schema.Field f = full.getField(m);
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    if (options.columns().isEmpty()) {
      for (Schema.Field f : full.getFields()) {
        if (!ScanPlan.isMeta(f.name())) {
          fields.add(new Schema.Field(f, f.schema()));
        }
      }
    } else {
      for (String c : options.columns()) {
        Schema.Field f = full.getField(c);
        if (f == null) {
          throw Errors.badRequest("Column '" + c + "'", "it is not in the table schema (columns: "
              + full.getFields().stream().map(Schema.Field::name).toList() + ")", "Name existing columns.");
        }
        if (!options.metaColumns() || !ScanPlan.isMeta(c)) {
          fields.add(new Schema.Field(f, f.schema()));
        }
      }
    }
    return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
  }
}
