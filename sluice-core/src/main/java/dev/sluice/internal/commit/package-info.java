/**
 * The commit protocol: how every action's instant goes requested → inflight → completed on the timeline.
 * {@link dev.sluice.internal.commit.InstantLifecycle} is the one implementation of it — the transitions, the table
 * lock ({@link dev.sluice.internal.commit.InstantLifecycle#locked} is the only place it is taken), the heartbeat check,
 * the pre-publish hook (a write's conflict check), the markers' removal after the publish and the undo of a failed
 * instant. Each action supplies only its plan and its metadata ({@link dev.sluice.internal.commit.InstantAction}).
 * Beside it: the lock providers ({@code hoodie.write.lock.*}), the heartbeats of lazy writers, the markers written
 * before every data file, the concurrency mode and failed-writes policy, and Hudi's default conflict check.
 *
 * <p>This package depends on none of the actions (write, compaction, clean, rollback, savepoint, restore); they depend
 * on it. That is why a write's adapter ({@code write.WriteTransaction}, which rolls back failed writes) and the
 * rollback/savepoint/restore front ({@code service.TableActions}) live with their callers.
 */
package dev.sluice.internal.commit;
