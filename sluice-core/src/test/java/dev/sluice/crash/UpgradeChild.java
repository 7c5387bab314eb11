package dev.sluice.crash;

import dev.sluice.api.Tables;

/**
 * The child JVM of {@link UpgradeKillPointsTest}: {@code UpgradeChild <table> <version>} upgrades the table; a kill
 * point armed with {@code -Dsluice.killpoint} stops it dead.
 */
public final class UpgradeChild {
  private UpgradeChild() {
  }

  /** Entry point. */
  public static void main(String[] args) {
    Tables.open(args[0]).upgrade(Integer.parseInt(args[1]));
  }
}
