/**
 * Parquet base files, written and read as Hudi 0.15 does. On the write path {@code BaseFileWriter} writes a new
 * file (meta fields, footer with bloom filter and min/max record keys), {@code RowShredder} puts records into its
 * column writers, and {@code RowCopier} copies the rows a Copy-on-Write merge or a compaction keeps column to
 * column without building records. On the read path {@code BaseFileReader} reads the footer and iterates rows,
 * {@code RowAssembler} builds Avro records straight from the column readers ({@code CopyColumnReader} decodes plain
 * and dictionary pages itself), {@code KeyedRowRead} reads one row for a point lookup, and {@code KeyMatcher}
 * checks candidate keys against a file's record key column for the index. Both paths compress and decompress pages
 * through {@code PageCodecs}: Snappy and uncompressed pages with snappy-java directly, the other codecs through
 * Parquet's factory (which makes them through Hadoop, a cost a short process should not pay for the default codec).
 */
package dev.sluice.internal.basefile;
