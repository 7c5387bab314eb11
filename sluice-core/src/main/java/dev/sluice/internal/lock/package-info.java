/**
 * The table lock of optimistic concurrency control: {@code TableLock} takes the configured {@code LockProvider} (a
 * lock file created atomically, {@code FileSystemLockProvider}, or {@code InProcessLockProvider} for threads of one
 * JVM) with retries until {@code hoodie.write.lock.wait_time_ms}. A write holds it while it checks for conflicts
 * and publishes its commit; rollbacks, clean planning and archival take it too.
 */
package dev.sluice.internal.lock;
