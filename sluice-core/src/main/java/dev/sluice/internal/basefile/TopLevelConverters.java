package dev.sluice.internal.basefile;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * The root of a converter tree over top-level primitive columns only: Parquet's column readers look each column's
 * converter up by field index under it, and rows have no group structure to start or end.
 */
final class TopLevelConverters extends GroupConverter {
  private final Converter[] fields;

  TopLevelConverters(Converter... fields) {
    this.fields = fields.clone();
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return fields[fieldIndex];
  }

  @Override
  public void start() {
    // no nested groups: values arrive through the column converters alone
  }

  @Override
  public void end() {
    // as start()
  }
}
