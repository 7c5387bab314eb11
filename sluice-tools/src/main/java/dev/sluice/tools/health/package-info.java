/**
 * Table health: figures computed from a {@link dev.sluice.api.TableInspection} (timeline, commit metadata, file
 * listing; no CLI code and no engine internals): per
 * commit what it wrote and its write amplification ({@link dev.sluice.tools.health.CommitStats}), per latest file slice
 * its logs and read amplification ({@link dev.sluice.tools.health.SliceStats}), pending compactions, base file sizes, the
 * {@link dev.sluice.tools.health.Warning}s they raise ({@link dev.sluice.tools.health.TableHealth}), and which table type suits
 * the observed writes ({@link dev.sluice.tools.health.Advisor}).
 */
package dev.sluice.tools.health;
