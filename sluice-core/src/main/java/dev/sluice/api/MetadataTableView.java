package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.read.ListingCheck;
import dev.sluice.internal.mdt.read.MetadataFile;
import dev.sluice.internal.mdt.read.MetadataTableReader;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Timeline;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's metadata table ({@code .hoodie/metadata}) as it was when {@link Table#metadataTable()} was called: whether
 * reads list partitions and files through it (and why not), what it lists, and a check of that against storage
 * ({@code hudi-cli metadata list-partitions}, {@code list-files}, {@code validate-files}). What it lists is read
 * whether or not reads use it, so a stale metadata table can be inspected.
 */
public final class MetadataTableView {
  private final Table table;
  private final TableConfig config;
  private final Timeline timeline;
  private final MetadataTables.Availability availability;
  private final boolean exists;
  private Optional<MetadataTableReader> reader;

  MetadataTableView(Table table, TableConfig config, Timeline timeline, boolean enabled) {
    this.table = table;
    this.config = config;
    this.timeline = timeline;
    this.availability = MetadataTables.check(table.storage(), table.location(), timeline, config, enabled);
    String folder = TableLayout.metadataTableFolder(table.location());
    try {
      this.exists = table.storage().info(folder).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check for the metadata table at", folder, e);
    }
  }

  /** True if {@code .hoodie/metadata} exists. */
  public boolean exists() {
    return exists;
  }

  /** The metadata partitions {@code hoodie.table.metadata.partitions} lists as built (e.g. {@code files}). */
  public List<String> partitionsEnabled() {
    return config.metadataPartitions();
  }

  /** True if reads list partitions and files through the metadata table. */
  public boolean usedForListings() {
    return availability.available();
  }

  /** Why reads use the metadata table or not, one sentence. */
  public String status() {
    return availability.reason();
  }

  /** The metadata table's latest completed instant, if it has one. */
  public Optional<String> latestInstant() {
    return reader().map(MetadataTableReader::latestInstant);
  }

  /** The data partitions the metadata table lists, sorted ({@code ""} for a non-partitioned table). */
  public List<String> partitions() {
    return required().partitions();
  }

  /** The files of every partition the metadata table lists, by partition, each sorted by name. */
  public Map<String, List<MetadataFileInfo>> files() {
    MetadataTableReader r = required();
    Map<String, List<MetadataFileInfo>> out = new LinkedHashMap<>();
    Map<String, List<MetadataFile>> files = r.files(r.partitions());
    for (String p : r.partitions()) {
      List<MetadataFileInfo> list = new ArrayList<>();
      for (MetadataFile f : files.getOrDefault(p, List.of())) {
        list.add(new MetadataFileInfo(f.name(), f.size()));
      }
      out.put(p, List.copyOf(list));
    }
    return out;
  }

  /**
   * The metadata table's listing against a listing of storage: partitions and files only one side has, and size
   * differences. Files of instants pending on the timeline are left out of the storage side.
   */
  public MetadataValidation validate() {
    ListingCheck.Result r = ListingCheck.compare(required(), table.storage(), table.location(), timeline);
    List<MetadataDifference> diffs = new ArrayList<>();
    for (ListingCheck.Difference d : r.differences()) {
      diffs.add(new MetadataDifference(MetadataDifference.Kind.valueOf(d.kind().name()), d.partition(), d.file(),
          d.metadataSize(), d.storageSize()));
    }
    return new MetadataValidation(r.partitions(), r.files(), diffs);
  }

  private synchronized Optional<MetadataTableReader> reader() {
    if (reader == null) {
      reader = availability.reader().isPresent() ? availability.reader()
          : exists ? MetadataTableReader.open(table.storage(), table.location(), timeline) : Optional.empty();
    }
    return reader;
  }

  private MetadataTableReader required() {
    return reader().orElseThrow(() -> Errors.badRequest("Reading the metadata table of " + table.location(),
        exists ? "it has no completed instant" : "the table has no metadata table (.hoodie/metadata)",
        "Build one with `sluice metadata init` (Table.initMetadataTable), or write the table: writes build it "
            + "unless hoodie.metadata.enable=false."));
  }
}
