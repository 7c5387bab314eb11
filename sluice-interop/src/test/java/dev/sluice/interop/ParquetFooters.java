package dev.sluice.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;

/** A Parquet file's footer read with Sluice's Parquet library, to compare what Sluice and Hudi write. */
record ParquetFooters(MessageType schema, Map<String, String> keyValues, String createdBy) {

  /** Reads the footer of a local Parquet file. */
  static ParquetFooters read(Path file) {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      FileMetaData meta = reader.getFooter().getFileMetaData();
      return new ParquetFooters(meta.getSchema(), new TreeMap<>(meta.getKeyValueMetaData()), meta.getCreatedBy());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the footer of " + file, e);
    }
  }
}
