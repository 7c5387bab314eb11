package dev.sluice.internal.basefile;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Which columns a rewrite of a base file (a Copy-on-Write merge, a compaction) writes without trying a dictionary.
 *
 * <p>Parquet's writer builds a dictionary for every column and abandons it at the first page when it does not pay
 * (unique keys, random doubles, free text): the values hashed until then are wasted work, a fifth of the CPU of
 * writing the benchmark's rows. A new version of a file group holds mostly the same rows as the old one, so a column
 * whose chunks in the old file have no dictionary-encoded page would be abandoned again; it is written plain from
 * the start, which gives the same bytes. So that a column whose values became repetitive gets its dictionary back,
 * one rewrite in {@value #RETRY_EVERY} (chosen by the new file's name) tries every column again.
 *
 * <p>A new file group has no old file; its first {@value #SAMPLE} records stand in for it. A primitive column
 * (top-level or in nested records, not in lists or maps) with no repeated value among them has many more distinct
 * values than a first page holds (Parquet pages hold at most 20,000 rows), so its first page's dictionary would be
 * about as large as the plain values and be abandoned.
 */
public final class DictionaryChoice {
  /** One rewrite in this many tries the dictionary on every column. */
  static final int RETRY_EVERY = 8;

  /** Records of a new file looked at before it is written. */
  public static final int SAMPLE = 1024;

  private DictionaryChoice() {
  }

  /**
   * The options for a new file whose first records are {@code head} (at most {@link #SAMPLE}; fewer means a small
   * file, written as configured): the primitive columns (outside lists and maps) without a repeated value among
   * them are plain.
   */
  public static BaseFileWriterOptions forNewFile(BaseFileWriterOptions options, List<GenericRecord> head) {
    if (!options.dictionary() || head.size() < SAMPLE) {
      return options;
    }
    Set<String> plain = new LinkedHashSet<>();
    addDistinct(head.get(0).getSchema(), List.of(), head, plain);
    return plain.isEmpty() ? options : options.withPlainColumns(plain);
  }

  /** Adds the dotted paths of distinct-valued primitive leaves under {@code path} (through records only). */
  private static void addDistinct(Schema record, List<String> path, List<GenericRecord> rows, Set<String> out) {
    for (Schema.Field field : record.getFields()) {
      List<String> at = new ArrayList<>(path);
      at.add(field.name());
      Schema s = nonNull(field.schema());
      if (s.getType() == Schema.Type.RECORD) {
        addDistinct(s, at, rows, out);
      } else if (primitive(field.schema()) && allDistinct(rows, at)) {
        out.add(String.join(".", at));
      }
    }
  }

  /** The non-null branch of a two-branch union with null; any other schema as it is. */
  private static Schema nonNull(Schema s) {
    if (s.getType() == Schema.Type.UNION && s.getTypes().size() == 2) {
      Schema a = s.getTypes().get(0);
      Schema b = s.getTypes().get(1);
      return a.getType() == Schema.Type.NULL ? b : b.getType() == Schema.Type.NULL ? a : s;
    }
    return s;
  }

  /** The value at {@code path} in {@code r}, or null where a field is missing or a record on the way is null. */
  private static Object valueAt(GenericRecord r, List<String> path) {
    Object v = r;
    for (String name : path) {
      if (!(v instanceof GenericRecord g)) {
        return null;
      }
      Schema.Field f = g.getSchema().getField(name);
      v = f == null ? null : g.get(f.pos());
    }
    return v;
  }

  /** True for a string, bytes, fixed or numeric column, nullable or not. */
  private static boolean primitive(Schema s) {
    return switch (nonNull(s).getType()) {
      case STRING, BYTES, FIXED, INT, LONG, FLOAT, DOUBLE -> true;
      default -> false;
    };
  }

  /** True if the non-null values at {@code path} in {@code rows} are at least half the rows and all different. */
  private static boolean allDistinct(List<GenericRecord> rows, List<String> path) {
    Set<Object> seen = new HashSet<>(rows.size() * 2);
    for (GenericRecord r : rows) {
      Object v = valueAt(r, path);
      if (v == null) {
        continue;
      }
      Object normalized = v instanceof CharSequence || v instanceof ByteBuffer || v instanceof byte[]
          ? normalize(v) : v;
      if (!seen.add(normalized)) {
        return false;
      }
    }
    return seen.size() * 2 >= rows.size();
  }

  /** Strings and Avro's {@code Utf8} compare by text; byte buffers by content. */
  private static Object normalize(Object v) {
    if (v instanceof CharSequence c) {
      return c.toString();
    }
    if (v instanceof byte[] b) {
      return ByteBuffer.wrap(b);
    }
    return ((ByteBuffer) v).duplicate();
  }

  /**
   * The options for writing {@code newFileName} as a new version of {@code old}'s file: {@code options} with the
   * columns that had no dictionary in the old file marked plain, unless dictionaries are off anyway or this is a
   * retrying rewrite.
   */
  public static BaseFileWriterOptions forRewrite(BaseFileWriterOptions options, BaseFileReader old,
      String newFileName) {
    if (!options.dictionary() || Math.floorMod(newFileName.hashCode(), RETRY_EVERY) == 0) {
      return options;
    }
    Set<String> plain = old.columnsWithoutDictionary();
    return plain.isEmpty() ? options : options.withPlainColumns(plain);
  }

  /**
   * Dotted paths of the leaf columns none of whose chunks has a dictionary-encoded data page (from the chunks'
   * encoding statistics, or, for files written without them, whether the chunk has a dictionary page).
   */
  static Set<String> plainColumns(ParquetMetadata footer) {
    Set<String> withDictionary = new LinkedHashSet<>();
    Set<String> all = new LinkedHashSet<>();
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        String path = chunk.getPath().toDotString();
        all.add(path);
        EncodingStats stats = chunk.getEncodingStats();
        boolean dictionary = stats != null ? stats.hasDictionaryEncodedPages() : chunk.hasDictionaryPage();
        if (dictionary) {
          withDictionary.add(path);
        }
      }
    }
    all.removeAll(withDictionary);
    return all;
  }
}
