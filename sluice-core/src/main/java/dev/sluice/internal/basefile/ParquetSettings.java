package dev.sluice.internal.basefile;

import java.util.Locale;
import org.apache.avro.Conversions;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** The Parquet and Avro settings shared by base file writing and reading. */
final class ParquetSettings {
  /**
   * Values the writer accepts: raw Avro values (Long for timestamps, ByteBuffer or fixed for decimals, ...) and,
   * through these conversions, their Java forms (Instant, BigDecimal, UUID, LocalDate, LocalTime, ...).
   */
  private static final GenericData WRITE_MODEL = newWriteModel();

  private ParquetSettings() {
  }

  /**
   * Writer configuration matching what Hudi 0.15 gets from parquet-avro's defaults: two-level ("old") lists, i.e.
   * {@code group (LIST) { repeated <element> array; }}, and UUIDs as plain strings.
   */
  static ParquetConfiguration writeConf() {
    PlainParquetConfiguration conf = new PlainParquetConfiguration();
    conf.setBoolean(AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, true);
    conf.setBoolean(AvroWriteSupport.WRITE_PARQUET_UUID, false);
    return conf;
  }

  /** Reader configuration: plain Avro records, no reflection or specific classes. */
  static ParquetConfiguration readConf() {
    return new PlainParquetConfiguration();
  }

  static GenericData writeModel() {
    return WRITE_MODEL;
  }

  private static GenericData newWriteModel() {
    GenericData m = new GenericData();
    m.addLogicalTypeConversion(new Conversions.DecimalConversion());
    m.addLogicalTypeConversion(new Conversions.UUIDConversion());
    m.addLogicalTypeConversion(new TimeConversions.DateConversion());
    m.addLogicalTypeConversion(new TimeConversions.TimeMillisConversion());
    m.addLogicalTypeConversion(new TimeConversions.TimeMicrosConversion());
    m.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
    m.addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
    m.addLogicalTypeConversion(new TimeConversions.LocalTimestampMillisConversion());
    m.addLogicalTypeConversion(new TimeConversions.LocalTimestampMicrosConversion());
    return m;
  }

  /** The Parquet codec for an option value already checked by {@link BaseFileWriterOptions}. */
  static CompressionCodecName codec(String name) {
    return CompressionCodecName.valueOf(name.toUpperCase(Locale.ROOT));
  }
}
