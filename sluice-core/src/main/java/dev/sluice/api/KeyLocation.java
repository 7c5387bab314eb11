package dev.sluice.api;

import java.io.Serializable;

/**
 * Where an index found a record key, as a cluster engine's tasks send it back (see
 * {@link WriteUnits#recordLocations}).
 *
 * @param key the record key
 * @param partitionPath the partition of its file group
 * @param fileId its file group
 */
public record KeyLocation(String key, String partitionPath, String fileId) implements Serializable {
  private static final long serialVersionUID = 1L;
}
