/**
 * Moving a table between Hudi table versions as Hudi 1.x's {@code UpgradeDowngrade} does: {@code TableUpgrade}
 * (version 6 to 8 or 9, 8 to 9; 9 to 8 back), {@code TimelineConversion} (the layout-1 timeline and archive written as
 * a layout-2 timeline and LSM history beside them, before the switch), {@code UpgradeProperties} (the
 * {@code hoodie.properties} of each step), {@code MetadataTableUpgrade} (the metadata table upgraded with the data
 * table and kept: compacted, its timeline converted the same way, its properties switched after the data table's).
 * The switch of versions is one rewrite of {@code hoodie.properties}; every
 * step before it leaves the old version intact and every step after it is finished by running the upgrade again.
 */
package dev.sluice.internal.upgrade;
