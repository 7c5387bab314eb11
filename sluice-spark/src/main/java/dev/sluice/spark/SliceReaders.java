package dev.sluice.spark;

import dev.sluice.api.BaseFileInfo;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.LogFileInfo;
import dev.sluice.api.Table;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * The task side of a read: an input partition describes one file slice and the query; its reader opens the table
 * in the task (its own storage, its own timeline), plans the same scan narrowed to that slice
 * ({@link dev.sluice.api.Scan#onlySlice}, which refuses a slice whose files changed since the driver planned) and
 * reads it through the engine's slice reader (base file merged with its log files on a Merge-on-Read snapshot).
 */
final class SliceReaders {
  private SliceReaders() {
  }

  /** A file slice as plain values, sent to the task ({@link FileSliceInfo} holds Optionals, which Java does not serialize). */
  record SliceWire(String partitionPath, String fileId, String baseInstant, String basePath, String baseName,
      long baseSize, List<String> logPaths, List<String> logNames, List<Long> logSizes) implements Serializable {
    static SliceWire of(FileSliceInfo s) {
      List<String> paths = new ArrayList<>();
      List<String> names = new ArrayList<>();
      List<Long> sizes = new ArrayList<>();
      for (LogFileInfo l : s.logFiles()) {
        paths.add(l.path());
        names.add(l.fileName());
        sizes.add(l.size());
      }
      return new SliceWire(s.partitionPath(), s.fileId(), s.baseInstant(),
          s.baseFile().map(BaseFileInfo::path).orElse(null), s.baseFile().map(BaseFileInfo::fileName).orElse(null),
          s.baseFile().map(BaseFileInfo::size).orElse(-1L), List.copyOf(paths), List.copyOf(names),
          List.copyOf(sizes));
    }

    FileSliceInfo info() {
      List<LogFileInfo> logs = new ArrayList<>();
      for (int i = 0; i < logPaths.size(); i++) {
        logs.add(new LogFileInfo(logPaths.get(i), logNames.get(i), logSizes.get(i)));
      }
      Optional<BaseFileInfo> base = basePath == null ? Optional.empty()
          : Optional.of(new BaseFileInfo(basePath, baseName, baseSize));
      return new FileSliceInfo(new FileGroupKey(partitionPath, fileId), baseInstant, base, logs);
    }
  }

  /**
   * One file slice of a query.
   *
   * @param read the query's options
   * @param required the columns Spark asked for
   * @param pushed the filters pushed to the engine (turned into its predicate again in the task)
   * @param slice the slice
   */
  record SlicePartition(ReadOptions read, StructType required, Filter[] pushed, SliceWire slice)
      implements InputPartition {
    Optional<Expression> predicate() {
      List<Expression> all = new ArrayList<>();
      for (Filter f : pushed) {
        PushedFilters.toExpression(f).ifPresent(all::add);
      }
      return all.isEmpty() ? Optional.empty() : Optional.of(Expressions.and(all));
    }
  }

  /** Opens a reader per input partition, in the task. */
  static final class Factory implements PartitionReaderFactory {
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      SlicePartition p = (SlicePartition) partition;
      Table table = p.read().open();
      try {
        CloseableIterator<GenericRecord> rows = SliceScan.engineScan(p.read(), p.required(), p.predicate(), table)
            .onlySlice(p.slice().info()).open();
        return new Reader(table, rows, new SparkRows.Converter(p.required()));
      } catch (RuntimeException e) {
        table.close();
        throw e;
      }
    }
  }

  /** The slice's rows as Spark's internal rows. */
  private static final class Reader implements PartitionReader<InternalRow> {
    private final Table table;
    private final CloseableIterator<GenericRecord> rows;
    private final SparkRows.Converter converter;
    private InternalRow current;

    Reader(Table table, CloseableIterator<GenericRecord> rows, SparkRows.Converter converter) {
      this.table = table;
      this.rows = rows;
      this.converter = converter;
    }

    @Override
    public boolean next() {
      if (!rows.hasNext()) {
        return false;
      }
      current = converter.apply(rows.next());
      return true;
    }

    @Override
    public InternalRow get() {
      return current;
    }

    @Override
    public void close() {
      try (table) {
        rows.close();
      }
    }
  }
}
