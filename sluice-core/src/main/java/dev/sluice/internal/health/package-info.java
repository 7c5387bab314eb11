/**
 * Table health: figures computed from the timeline, commit metadata and the file-system view (no CLI code): per
 * commit what it wrote and its write amplification ({@link dev.sluice.internal.health.CommitStats}), per latest file slice
 * its logs and read amplification ({@link dev.sluice.internal.health.SliceStats}), pending compactions, base file sizes, the
 * {@link dev.sluice.internal.health.Warning}s they raise ({@link dev.sluice.internal.health.TableHealth}), and which table type suits
 * the observed writes ({@link dev.sluice.internal.health.Advisor}).
 */
package dev.sluice.internal.health;
