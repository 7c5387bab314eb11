/**
 * The write path. {@code TableWriter} runs one write: {@code BatchPreparer} validates the records and combines
 * duplicates, the index tags them, {@code WritePlanner} plans per file group ({@code FileGroupWrite}: updates to
 * their group, inserts into small files then new groups), and the handles write in parallel, each file behind a
 * marker: {@code MergeHandle} (Copy-on-Write merge), {@code CreateHandle} (new file group), {@code AppendHandle}
 * (Merge-on-Read log append). {@code CommitMetadatas} turns their {@code FileWriteResult}s into the commit metadata
 * that {@code txn.WriteTransaction} publishes. A batch past the memory budget goes through {@code SpillingWrite}
 * instead.
 */
package dev.sluice.internal.write;
