/**
 * Storage on Hadoop's {@code FileSystem} (HDFS, S3A, ViewFS, ABFS, GCS, ...): {@code HadoopStorage} implements the
 * core's {@code Storage}, {@code HadoopStorageProvider} registers its URI schemes through {@code ServiceLoader},
 * and {@code ExclusiveWrites} makes publishing an instant create-if-absent on each kind of store (a no-overwrite
 * rename on HDFS, a conditional PUT on S3 where the connector offers one). {@code AppendRefusals} recognizes the
 * NameNode's lease refusals so log writers roll over to a new file.
 */
package dev.sluice.hadoop;
