package dev.sluice.api;

import java.io.Serializable;

/**
 * How a {@link DistributedWrite} looks its keys up, as the engine's index of the table would ({@code
 * hoodie.index.type}): in base files (each key in its own partition's files, or in every partition's for a global
 * index), or in the metadata table's record index, shard by shard.
 *
 * @param type the index type ({@code BLOOM}, {@code SIMPLE}, {@code GLOBAL_BLOOM}, {@code GLOBAL_SIMPLE},
 *     {@code RECORD_INDEX})
 * @param global true if keys are unique across partitions: a key is looked up in every partition, and one found in
 *     another partition than its record's is tagged by {@link WriteUnits#tagFound}
 * @param recordIndexShards the record index's file groups if keys are looked up in it ({@link
 *     WriteUnits#recordIndexShard}, {@link WriteUnits#recordLocations}); 0 if they are looked up in base files (every
 *     index but RECORD_INDEX, and RECORD_INDEX when the record index cannot be used: it then tags as GLOBAL_SIMPLE)
 */
public record IndexLookup(String type, boolean global, int recordIndexShards) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** True if keys are looked up in the record index. */
  public boolean recordIndex() {
    return recordIndexShards > 0;
  }
}
