package dev.sluice.api;

import java.util.List;
import java.util.Optional;

/**
 * What {@link Table#repair} found and did.
 *
 * @param items every finding, in the order the repair fixes them; empty for a sound table
 * @param applied false for a dry run (nothing was changed)
 * @param backupFolder where the repair kept a copy of every file it changed or replaced ({@code .hoodie/.repair/<time>}),
 *     if it changed any
 */
public record RepairReport(List<RepairItem> items, boolean applied, Optional<String> backupFolder) {
  /** Copies the list. */
  public RepairReport {
    items = List.copyOf(items);
  }

  /** True if nothing was found. */
  public boolean sound() {
    return items.isEmpty();
  }
}
