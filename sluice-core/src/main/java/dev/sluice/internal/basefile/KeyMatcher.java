package dev.sluice.internal.basefile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * Finds which of a set of keys a file's record key column holds, probing a {@link Utf8KeySet} with each value's
 * bytes as Parquet decodes them: no String per row (a dictionary entry is probed once).
 */
final class KeyMatcher {
  private KeyMatcher() {
  }

  /**
   * The keys of {@code wanted} that occur in the single column of {@code schema}, each once, in the order found.
   * Reads every row group {@code reader} yields ({@code filtered}: only the pages its filter admits) and closes it.
   */
  static List<String> found(ParquetFileReader reader, MessageType schema, String createdBy, Utf8KeySet wanted,
      boolean filtered) throws IOException {
    ColumnDescriptor column = schema.getColumns().get(0);
    int maxDef = column.getMaxDefinitionLevel();
    Probe probe = new Probe(wanted);
    TopLevelConverters root = new TopLevelConverters(probe);
    reader.setRequestedSchema(schema);
    // Sluice's column reader decodes the common encodings straight from the page; a filtered read (pages skipped
    // by the column index) and other encodings go through Parquet's
    boolean own = !filtered && CopyColumnReader.readsAll(column, reader.getRowGroups());
    try (RowGroups groups = new RowGroups(reader, filtered)) {
      Optional<PageReadStore> pages;
      while ((pages = groups.next()).isPresent()) {
        probe.dictionary = null;
        if (own) {
          probeAll(CopyColumnReader.open(column, pages.get().getPageReader(column)), pages.get().getRowCount(),
              maxDef, probe);
          continue;
        }
        ColumnReader r = new ColumnReadStoreImpl(pages.get(), root, schema, createdBy).getColumnReader(column);
        for (long left = pages.get().getRowCount(); left > 0; left--) {
          if (r.getCurrentDefinitionLevel() == maxDef) {
            r.writeCurrentValueToConverter();
          }
          r.consume();
        }
      }
    } finally {
      reader.close();
    }
    return probe.found;
  }

  /** Probes {@code rows} values of one row group's chunk; a dictionary entry is probed once, as Parquet's reader does. */
  private static void probeAll(CopyColumnReader r, long rows, int maxDef, Probe probe) {
    r.dictionary().ifPresent(probe::setDictionary);
    for (long left = rows; left > 0; left--) {
      if (r.getCurrentDefinitionLevel() == maxDef) {
        int id = r.takeDictionaryId();
        if (id >= 0) {
          probe.addValueFromDictionary(id);
        } else {
          // a plain value is probed where it lies in the page
          int found = r.takePlainIndexIn(probe.wanted);
          if (found >= 0) {
            probe.mark(found);
          } else if (found == -2) {
            probe.addBinary(r.getBinary());
          }
        }
      }
      r.consume();
    }
  }

  /** Probes each value it is given; remembers each key found once. */
  private static final class Probe extends PrimitiveConverter {
    private final Utf8KeySet wanted;
    private final boolean[] seen;
    private final List<String> found = new ArrayList<>();
    private Dictionary dictionary;
    /** Per dictionary id: key index + 2, 1 for "not a wanted key", 0 for not probed yet. */
    private int[] dictionaryHits;

    Probe(Utf8KeySet wanted) {
      this.wanted = wanted;
      this.seen = new boolean[wanted.size()];
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      this.dictionary = dictionary;
      this.dictionaryHits = new int[dictionary.getMaxId() + 1];
    }

    @Override
    public void addValueFromDictionary(int id) {
      int hit = dictionaryHits[id];
      if (hit == 0) {
        hit = probe(dictionary.decodeToBinary(id)) + 2;
        dictionaryHits[id] = hit;
      }
      if (hit > 1) {
        mark(hit - 2);
      }
    }

    @Override
    public void addBinary(Binary b) {
      int i = probe(b);
      if (i >= 0) {
        mark(i);
      }
    }

    private int probe(Binary b) {
      ByteBuffer buf = b.toByteBuffer();
      if (buf.hasArray()) {
        int from = buf.arrayOffset() + buf.position();
        return wanted.indexOf(buf.array(), from, from + buf.remaining());
      }
      byte[] copy = b.getBytes();
      return wanted.indexOf(copy, 0, copy.length);
    }

    private void mark(int i) {
      if (!seen[i]) {
        seen[i] = true;
        found.add(wanted.key(i));
      }
    }
  }
}
