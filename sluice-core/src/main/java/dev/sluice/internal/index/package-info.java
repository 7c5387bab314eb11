/**
 * Tagging, the step of an insert, upsert or delete after its batch is prepared (bulk insert skips it): an {@code
 * Index} (built by {@code Indexes} from {@code hoodie.index.type}) maps each incoming record key to the file group
 * that already holds it, so the record becomes an update of that group or an insert. {@code KeyLookupIndex}
 * implements the bloom and simple indexes and their global forms: per latest base file, a {@code CandidateFilter}
 * (key range, then bloom filter) narrows the keys, then the file's record key column confirms them.
 */
package dev.sluice.internal.index;
