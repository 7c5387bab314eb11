package dev.sluice.interop;

import dev.sluice.api.TableSpec;
import dev.sluice.api.MergeMode;
import dev.sluice.api.TableType;
import org.apache.avro.generic.GenericRecord;

/**
 * The key and partition layouts the interop tests cover over {@link WideRows#SCHEMA}, each with the record key
 * and partition path Hudi's key generator gives a row, written out here independently of Sluice's code.
 */
enum KeyLayout {
  /** Key {@code id}, partition {@code part} (SimpleKeyGenerator). */
  PARTITIONED,
  /** Key {@code id}, no partitions (NonpartitionedKeyGenerator). */
  NON_PARTITIONED,
  /**
   * Key {@code id}, hive-style partitions {@code region=../part=..} (ComplexKeyGenerator, single key field; a null
   * region is {@code __HIVE_DEFAULT_PARTITION__}).
   */
  HIVE_STYLE,
  /** Key {@code id,sub} (ComplexKeyGenerator: {@code id:x,sub:n}), partition {@code part}. */
  COMPLEX_KEY;

  /**
   * A Sluice table spec of this layout, at table version 6: Hudi 0.15.0 (the oracle of every test using these
   * layouts) reads and writes only version 6.
   */
  TableSpec spec(String name, MergeMode mode) {
    TableSpec.Builder b = TableSpec.builder(name).type(TableType.COPY_ON_WRITE).precombine("ts")
        .schema(WideRows.SCHEMA).mergeMode(mode).tableVersion(6);
    switch (this) {
      case PARTITIONED:
        return b.recordKey("id").partitionBy("part").build();
      case NON_PARTITIONED:
        return b.recordKey("id").build();
      case HIVE_STYLE:
        return b.recordKey("id").partitionBy("region", "part").hiveStyle(true).build();
      case COMPLEX_KEY:
        return b.recordKey("id", "sub").partitionBy("part").build();
      default:
        throw new AssertionError(this);
    }
  }

  /** The oracle's spec of this layout (Hudi's own table creation). */
  OracleTableSpec oracleSpec(String name) {
    OracleTableSpec.Builder b = OracleTableSpec.builder(name, WideRows.SCHEMA).copyOnWrite().precombine("ts");
    switch (this) {
      case PARTITIONED:
        return b.recordKey("id").partitionBy("part").build();
      case NON_PARTITIONED:
        return b.recordKey("id").build();
      case HIVE_STYLE:
        return b.recordKey("id").partitionBy("region", "part").hiveStyle(true).build();
      case COMPLEX_KEY:
        return b.recordKey("id", "sub").partitionBy("part").build();
      default:
        throw new AssertionError(this);
    }
  }

  /** Hudi's record key of a row (full row or key-only row). */
  String recordKey(GenericRecord row) {
    String id = row.get("id").toString();
    return this == COMPLEX_KEY ? "id:" + id + ",sub:" + row.get("sub") : id;
  }

  /** Hudi's partition path of a row. */
  String partitionPath(GenericRecord row) {
    switch (this) {
      case NON_PARTITIONED:
        return "";
      case HIVE_STYLE:
        // Hudi's placeholder for a null (or empty) partition value
        Object region = row.get("region");
        return "region=" + (region == null || region.toString().isEmpty() ? "__HIVE_DEFAULT_PARTITION__" : region)
            + "/part=" + row.get("part");
      default:
        return row.get("part").toString();
    }
  }

  /** A fresh model of a table of this layout. */
  ExpectedTable model(boolean eventTimeOrdering) {
    return new ExpectedTable(this::recordKey, this::partitionPath, eventTimeOrdering);
  }
}
