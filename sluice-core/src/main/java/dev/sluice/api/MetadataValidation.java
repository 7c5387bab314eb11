package dev.sluice.api;

import java.util.List;

/**
 * The metadata table's listing checked against storage ({@link MetadataTableView#validate()}).
 *
 * @param partitions partitions compared (on either side)
 * @param files files compared (on either side)
 * @param differences what differs, by partition then file; empty when the two agree
 */
public record MetadataValidation(int partitions, long files, List<MetadataDifference> differences) {
  /** Copies the list. */
  public MetadataValidation {
    differences = List.copyOf(differences);
  }

  /** True if the metadata table lists exactly what storage holds. */
  public boolean matches() {
    return differences.isEmpty();
  }
}
