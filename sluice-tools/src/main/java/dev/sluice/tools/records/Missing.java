package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/** What a reader puts in a field the input leaves out: the schema default, null, or an error. */
final class Missing {
  private final Schema.Field field;
  private final boolean required;
  private final Object value;
  private final boolean shared;

  private Missing(Schema.Field field, boolean required, Object value, boolean shared) {
    this.field = field;
    this.required = required;
    this.value = value;
    this.shared = shared;
  }

  /** The rule for {@code field}: its default if it has one, else null if nullable, else required. */
  static Missing of(Schema.Field field) {
    if (field.hasDefaultValue()) {
      Object v;
      try {
        v = Values.normalize(field.schema(), GenericData.get().getDefaultValue(field));
      } catch (AvroRuntimeException e) {
        throw SluiceException.badRequest("Cannot use the default of field '" + field.name() + "'",
            "it does not match the field's type (" + e.getMessage() + ")", "Fix the default in the table schema.");
      }
      return new Missing(field, false, v, Values.isImmutable(field.schema(), v));
    }
    if (Schemas.isNullable(field.schema())) {
      return new Missing(field, false, null, true);
    }
    return new Missing(field, true, null, true);
  }

  boolean required() {
    return required;
  }

  /**
   * The value for the absent field.
   *
   * @throws FieldError naming the field when it is required
   */
  Object value() {
    if (required) {
      throw new FieldError("is missing", "a value (the field is not nullable and has no default)").inField(field.name());
    }
    return shared ? value : Values.normalize(field.schema(), value);
  }
}
