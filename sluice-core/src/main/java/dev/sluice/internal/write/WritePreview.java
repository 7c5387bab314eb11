package dev.sluice.internal.write;

import dev.sluice.api.WriteOperation;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.index.Index;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.internal.merge.WriteRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * What a write of some records would touch, found the way the write itself starts (validate and combine the batch,
 * tag it against the configured index) but without writing anything: per existing file group the updates and
 * deletes it would get, the size of the files a Copy-on-Write merge would rewrite, and the Avro bytes of the rows a
 * Merge-on-Read log append would carry.
 *
 * @param records records after combining duplicate keys
 * @param inserts records whose key no file group holds (they go to small or new base files on either table type)
 * @param targets existing file groups that hold keys of the batch, in tagging order
 * @param blockHeaderBytes estimated header bytes of one log block (the writer schema, which Hudi repeats in every
 *     block, plus framing)
 */
public record WritePreview(long records, long inserts, List<Target> targets, long blockHeaderBytes) {
  /** Block framing and the headers besides the schema, about (magic, lengths, version, instant time). */
  private static final int BLOCK_FRAMING_BYTES = 64;
  /** The meta fields' fixed part of a row: commit time, sequence number, length prefixes. */
  private static final int META_FIXED_BYTES = 17 + 25 + 5;

  /** Copies the list. */
  public WritePreview {
    targets = List.copyOf(targets);
  }

  /**
   * One existing file group the write would change.
   *
   * @param id the file group
   * @param updates records updating keys the group holds
   * @param deletes records deleting keys the group holds
   * @param baseFileBytes size of its latest base file (what a Copy-on-Write merge reads and rewrites)
   * @param logBytes size of the log files of its latest slice
   * @param changedRowBytes Avro binary bytes of the updated rows with their meta fields (deletes: key and
   *     partition), without block headers
   */
  public record Target(FileGroupId id, long updates, long deletes, long baseFileBytes, long logBytes,
      long changedRowBytes) {
  }

  /** Tags {@code input} as a write of {@code op} would, against the table state in {@code view}. */
  public static WritePreview of(WriteSetup setup, WriteOperation op, Iterator<GenericRecord> input, FileSystemView view) {
    boolean combine = setup.settings().combine(op);
    List<WriteRecord> records = new BatchPreparer(setup).prepare(input, op, combine);
    Index index = Indexes.of(setup.storage(), setup.indexedTable(), setup.settings().index());
    List<TaggedRecord> tagged = op == WriteOperation.BULK_INSERT ? untagged(records) : index.tag(records, view);
    Map<FileGroupId, long[]> byGroup = new LinkedHashMap<>();
    long inserts = 0;
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(setup.userSchema());
    Counting counter = new Counting();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(counter, null);
    for (TaggedRecord t : tagged) {
      WriteRecord r = t.record();
      if (t.location().isEmpty()) {
        if (!r.isDelete()) {
          inserts++;
        }
        continue;
      }
      Location loc = t.location().get();
      long[] c = byGroup.computeIfAbsent(new FileGroupId(loc.partitionPath(), loc.fileId()), k -> new long[3]);
      c[r.data() == null ? 1 : 0]++;
      long keyBytes = (r.key() + r.partitionPath()).getBytes(StandardCharsets.UTF_8).length;
      c[2] += r.data() == null ? keyBytes
          : encodedSize(writer, encoder, counter, r.data()) + META_FIXED_BYTES + keyBytes + loc.fileId().length();
    }
    Map<FileGroupId, FileSlice> slices = new HashMap<>();
    for (FileGroupId id : byGroup.keySet()) {
      if (!slices.containsKey(id)) {
        view.latestMergedSlices(id.partitionPath()).forEach(s -> slices.put(s.id(), s));
      }
    }
    List<Target> targets = new ArrayList<>();
    byGroup.forEach((id, c) -> {
      FileSlice s = slices.get(id);
      long base = s == null ? 0 : s.baseFile().map(b -> b.size()).orElse(0L);
      long logs = s == null ? 0 : s.logFiles().stream().mapToLong(LogFile::size).sum();
      targets.add(new Target(id, c[0], c[1], base, logs, c[2]));
    });
    return new WritePreview(records.size(), inserts, targets,
        setup.writerSchema().toString().getBytes(StandardCharsets.UTF_8).length + BLOCK_FRAMING_BYTES);
  }

  private static List<TaggedRecord> untagged(List<WriteRecord> records) {
    List<TaggedRecord> out = new ArrayList<>(records.size());
    records.forEach(r -> out.add(TaggedRecord.insert(r)));
    return out;
  }

  private static long encodedSize(GenericDatumWriter<GenericRecord> writer, BinaryEncoder encoder, Counting counter,
      GenericRecord row) {
    long before = counter.count;
    try {
      writer.write(row, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw Errors.internal("measuring a row's Avro size failed", e);
    }
    return counter.count - before;
  }

  /** Counts bytes and drops them. */
  private static final class Counting extends OutputStream {
    private long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
