package dev.sluice.internal.basefile;

/** Key-value metadata keys of a base file footer (format reference section 6.2). */
public final class FooterKeys {
  /** Avro schema JSON, written by parquet-avro. */
  public static final String AVRO_SCHEMA = "parquet.avro.schema";
  /** Avro schema key of very old parquet-avro writers. */
  public static final String OLD_AVRO_SCHEMA = "avro.schema";
  /** Object model name, {@code avro}. */
  public static final String WRITER_MODEL = "writer.model.name";
  /** Base64 bloom filter. */
  public static final String BLOOM_FILTER = "org.apache.hudi.bloomfilter";
  /** Bloom filter key of pre-Apache Hudi files. */
  public static final String OLD_BLOOM_FILTER = "com.uber.hoodie.bloomfilter";
  /** Bloom filter type name; only for dynamic filters, absent means SIMPLE. */
  public static final String BLOOM_FILTER_TYPE = "hoodie_bloom_filter_type_code";
  /** Smallest record key (Java String order). */
  public static final String MIN_RECORD_KEY = "hoodie_min_record_key";
  /** Largest record key (Java String order). */
  public static final String MAX_RECORD_KEY = "hoodie_max_record_key";

  private FooterKeys() {
  }
}
