/**
 * HFile version 3, as Hudi's metadata table stores its records in it: base files ({@code *.hfile}) and the content
 * of {@code HFILE_DATA_BLOCK} log blocks. Sluice's own code, no HBase library: {@link dev.sluice.internal.hfile.HFileWriter}
 * writes files that HBase 2.4's reader (Hudi 0.15's default) and Hudi's native hudi-io reader both read completely,
 * and {@link dev.sluice.internal.hfile.HFileReader} reads those and the files HBase and Hudi write (single- and
 * multi-level block indexes, HBase's shortened index keys, NONE and GZ compression, CRC32/CRC32C checksums).
 *
 * <p>Layout (all integers big-endian): data blocks of cells with leaf index blocks between them once the index
 * grows, then meta blocks and intermediate index blocks, then the load-on-open section (data root index, meta
 * root index, file info) and a fixed 4096-byte trailer. Every block has a 33-byte header and CRC32C checksums of
 * each 16 KiB chunk of its on-disk bytes.
 */
package dev.sluice.internal.hfile;
