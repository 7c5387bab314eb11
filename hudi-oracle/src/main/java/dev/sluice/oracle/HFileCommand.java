package dev.sluice.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.log.HoodieLogFormat;
import org.apache.hudi.common.table.log.block.HoodieDataBlock;
import org.apache.hudi.common.table.log.block.HoodieLogBlock;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.common.util.io.ByteBufferBackedInputStream;
import org.apache.hudi.io.ByteArraySeekableDataInputStream;
import org.apache.hudi.io.hfile.HFileReader;
import org.apache.hudi.io.hfile.HFileReaderImpl;
import org.apache.hudi.io.hfile.UTF8StringKey;
import org.apache.hudi.io.storage.HoodieHBaseKVComparator;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.HoodieStorageUtils;
import org.apache.hudi.storage.StoragePath;

/**
 * HFiles at the level Hudi 0.15 reads and writes them for the metadata table.
 *
 * <p>{@code hfile-read --files F1,F2 --readers native,hbase}: per file and reader one JSON line
 * {@code {"file","reader","ok":true,"entries","cells":[[key, base64 value],...],"lookups","lookupFailures":[...],
 * "seekBeforeFailures":[...]}} or {@code {"file","reader","ok":false,"error"}}. {@code native} is hudi-io's
 * {@code HFileReaderImpl} (Hudi's own reader, {@code _hoodie.hfile.use.native.reader}); {@code hbase} is HBase
 * 2.4.13's {@code HFile.createReader}, Hudi 0.15's default. Every key of the scan is also looked up with the
 * reader's seek; with HBase, {@code seekBefore} of every key but the first must land on the key before it.
 *
 * <p>{@code hfile-write --file F --input CELLS.jsonl [--codec GZ|NONE] [--block-size N] [--index-block-size N]}:
 * writes the cells ({@code {"key","value": base64}} per line, sorted) with HBase's writer configured as Hudi's
 * {@code HoodieAvroHFileWriter} does (Hudi's comparator, one KeyValue per record: row = key, empty family and
 * qualifier, latest timestamp, Put); {@code --index-block-size} sets {@code hfile.index.block.max.size}.
 */
final class HFileCommand {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_REPORTED = 5;

  private HFileCommand() {
  }

  static void read(Args args, PrintStream out) throws IOException {
    Configuration conf = HudiEnv.hadoopConf(args.conf());
    for (String file : args.list("files")) {
      for (String reader : args.list("readers")) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("file", file);
        line.put("reader", reader);
        try {
          if (reader.equals("native")) {
            readNative(Path.of(file), line);
          } else if (reader.equals("hbase")) {
            readHBase(conf, file, line);
          } else {
            throw new Args.UsageException("unknown reader: " + reader);
          }
          line.put("ok", true);
        } catch (IOException | RuntimeException e) {
          if (e instanceof Args.UsageException) {
            throw e;
          }
          line.keySet().retainAll(List.of("file", "reader"));
          line.put("ok", false);
          line.put("error", e.toString());
        }
        out.println(JSON.writeValueAsString(line));
      }
    }
  }

  private static void readNative(Path file, Map<String, Object> line) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    List<List<String>> cells = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    int lookups = 0;
    try (HFileReader r = new HFileReaderImpl(
        new ByteArraySeekableDataInputStream(new ByteBufferBackedInputStream(bytes)), bytes.length)) {
      r.initializeMetadata();
      line.put("entries", r.getNumKeyValueEntries());
      if (r.seekTo()) {
        do {
          org.apache.hudi.io.hfile.KeyValue kv = r.getKeyValue().get();
          cells.add(List.of(kv.getKey().getContentInString(), base64(kv.getBytes(), kv.getValueOffset(), kv.getValueLength())));
        } while (r.next());
      }
    }
    // lookups on a fresh reader, in key order and positioned at the first key first, as Hudi's key lookups go
    // (HoodieNativeAvroHFileReader: seekTo() unless seeked, then seekTo(key) forward)
    try (HFileReader r = new HFileReaderImpl(
        new ByteArraySeekableDataInputStream(new ByteBufferBackedInputStream(bytes)), bytes.length)) {
      r.initializeMetadata();
      r.seekTo();
      for (List<String> c : cells) {
        lookups++;
        int status = r.seekTo(new UTF8StringKey(c.get(0)));
        Option<org.apache.hudi.io.hfile.KeyValue> kv = r.getKeyValue();
        if (status != HFileReader.SEEK_TO_FOUND || !kv.isPresent()
            || !base64(kv.get().getBytes(), kv.get().getValueOffset(), kv.get().getValueLength()).equals(c.get(1))) {
          report(failures, c.get(0) + " (seek status " + status + ")");
        }
      }
    }
    line.put("cells", cells);
    line.put("lookups", lookups);
    line.put("lookupFailures", failures);
    line.put("seekBeforeFailures", List.of());
  }

  private static void readHBase(Configuration conf, String file, Map<String, Object> line) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file);
    FileSystem fs = path.getFileSystem(conf);
    List<List<String>> cells = new ArrayList<>();
    List<byte[]> rows = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    List<String> seekBefore = new ArrayList<>();
    try (HFile.Reader reader = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf)) {
      line.put("entries", reader.getEntries());
      HFileScanner scanner = reader.getScanner(false, false);
      if (scanner.seekTo()) {
        do {
          Cell c = scanner.getCell();
          rows.add(CellUtil.cloneRow(c));
          cells.add(List.of(new String(CellUtil.cloneRow(c), StandardCharsets.UTF_8),
              Base64.getEncoder().encodeToString(CellUtil.cloneValue(c))));
        } while (scanner.next());
      }
      HFileScanner lookup = reader.getScanner(false, true);
      for (int i = 0; i < rows.size(); i++) {
        KeyValue probe = new KeyValue(rows.get(i), null, null, null);
        int status = lookup.seekTo(probe);
        if (status != 0 || !Arrays.equals(CellUtil.cloneRow(lookup.getCell()), rows.get(i))
            || !Base64.getEncoder().encodeToString(CellUtil.cloneValue(lookup.getCell())).equals(cells.get(i).get(1))) {
          report(failures, cells.get(i).get(0) + " (seek status " + status + ")");
        }
        if (i > 0) {
          boolean found = lookup.seekBefore(probe);
          if (!found || !Arrays.equals(CellUtil.cloneRow(lookup.getCell()), rows.get(i - 1))) {
            report(seekBefore, cells.get(i).get(0));
          }
        }
      }
      line.put("lookups", rows.size());
    }
    line.put("cells", cells);
    line.put("lookupFailures", failures);
    line.put("seekBeforeFailures", seekBefore);
  }

  static void write(Args args, PrintStream out) throws IOException {
    Configuration conf = HudiEnv.hadoopConf(args.conf());
    args.optional("index-block-size").ifPresent(v -> conf.set("hfile.index.block.max.size", v));
    Compression.Algorithm codec = Compression.getCompressionAlgorithmByName(args.optional("codec").orElse("gz").toLowerCase());
    HFileContext context = new HFileContextBuilder()
        .withBlockSize(Integer.parseInt(args.optional("block-size").orElse(String.valueOf(1024 * 1024))))
        .withCompression(codec)
        .withCellComparator(new HoodieHBaseKVComparator())
        .build();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(args.required("file"));
    FileSystem fs = path.getFileSystem(conf);
    long n = 0;
    HFile.Writer writer = HFile.getWriterFactory(conf, new CacheConfig(conf)).withPath(fs, path).withFileContext(context).create();
    try (BufferedReader in = Files.newBufferedReader(Path.of(args.required("input")), StandardCharsets.UTF_8)) {
      String l;
      while ((l = in.readLine()) != null) {
        if (l.isBlank()) {
          continue;
        }
        JsonNode node = JSON.readTree(l);
        byte[] value = Base64.getDecoder().decode(node.get("value").asText());
        writer.append(new KeyValue(node.get("key").asText().getBytes(StandardCharsets.UTF_8), null, null, value));
        n++;
      }
      writer.appendFileInfo("schema".getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8));
    } finally {
      writer.close();
    }
    out.println(JSON.writeValueAsString(Map.of("file", path.toString(), "cells", n)));
  }

  /**
   * {@code hfile-log --file LOG [--conf _hoodie.hfile.use.native.reader=true]}: every data block of a log file
   * through Hudi's log reader ({@code HoodieLogFormat.newReader}; HFile blocks through {@code HoodieHFileDataBlock}),
   * one JSON line per block: {@code {"type","instant","records":[<record as Avro's toString JSON>,...]}}.
   */
  static void log(Args args, PrintStream out) throws IOException {
    StoragePath path = new StoragePath(args.required("file"));
    HoodieStorage storage = HoodieStorageUtils.getStorage(path, HudiEnv.storageConf(args.conf()));
    try (HoodieLogFormat.Reader reader = HoodieLogFormat.newReader(storage, new HoodieLogFile(path), null)) {
      while (reader.hasNext()) {
        HoodieLogBlock block = reader.next();
        if (!(block instanceof HoodieDataBlock)) {
          continue;
        }
        List<JsonNode> records = new ArrayList<>();
        try (ClosableIterator<HoodieRecord<IndexedRecord>> it =
                 ((HoodieDataBlock) block).getRecordIterator(HoodieRecord.HoodieRecordType.AVRO)) {
          while (it.hasNext()) {
            records.add(JSON.readTree(it.next().getData().toString()));
          }
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("type", block.getBlockType().name());
        line.put("instant", block.getLogBlockHeader().get(HoodieLogBlock.HeaderMetadataType.INSTANT_TIME));
        line.put("records", records);
        out.println(JSON.writeValueAsString(line));
      }
    }
  }

  private static String base64(byte[] b, int off, int len) {
    return Base64.getEncoder().encodeToString(Arrays.copyOfRange(b, off, off + len));
  }

  private static void report(List<String> failures, String what) {
    if (failures.size() < MAX_REPORTED) {
      failures.add(what);
    }
  }
}
