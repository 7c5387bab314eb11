/**
 * Table health: figures computed from the timeline, commit metadata and the file-system view (no CLI code): per
 * commit what it wrote and its write amplification ({@link dev.sluice.tools.health.CommitStats}), per latest file slice
 * its logs and read amplification ({@link dev.sluice.tools.health.SliceStats}), pending compactions, base file sizes, the
 * {@link dev.sluice.tools.health.Warning}s they raise ({@link dev.sluice.tools.health.TableHealth}), and which table type suits
 * the observed writes ({@link dev.sluice.tools.health.Advisor}).
 */
package dev.sluice.tools.health;
