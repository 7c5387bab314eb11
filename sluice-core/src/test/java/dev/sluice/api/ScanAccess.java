package dev.sluice.api;

import dev.sluice.internal.read.ScanPlan;

/** Lets engine tests outside {@code dev.sluice.api} look at a scan's plan, which the public API does not hand out. */
public final class ScanAccess {
  private ScanAccess() {
  }

  /** The plan of {@code scan}, made now. */
  public static ScanPlan plan(Scan scan) {
    return scan.plan();
  }
}
