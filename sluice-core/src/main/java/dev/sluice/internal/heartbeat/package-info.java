/**
 * Writer heartbeats, as Hudi's heartbeat client keeps them: under the LAZY failed-writes policy (forced by
 * optimistic concurrency control) a running write re-creates {@code .hoodie/.heartbeat/<instant>} every interval,
 * and a pending instant whose heartbeat expired counts as failed and is rolled back by the next write. Part of a
 * write's instant lifecycle ({@code txn.WriteTransaction}).
 */
package dev.sluice.internal.heartbeat;
