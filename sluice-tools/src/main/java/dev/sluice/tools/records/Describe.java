package dev.sluice.tools.records;

import java.util.List;
import java.util.StringJoiner;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/** Words for error messages: what a schema expects, a type's short name, and an input value shown briefly. */
final class Describe {
  private static final int MAX_SHOWN = 60;

  private Describe() {
  }

  /** A short type name: {@code long}, {@code decimal(10,2)}, {@code timestamp-micros}, {@code enum Color}. */
  static String typeName(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
      LogicalTypes.Decimal d = (LogicalTypes.Decimal) schema.getLogicalType();
      return "decimal(" + d.getPrecision() + "," + d.getScale() + ")";
    }
    String logical = Schemas.logicalName(schema);
    if (logical != null) {
      return logical;
    }
    switch (schema.getType()) {
      case ENUM:
        return "enum " + schema.getName();
      case RECORD:
        return "record " + schema.getName();
      case FIXED:
        return "fixed(" + schema.getFixedSize() + ")";
      case ARRAY:
        return "array<" + typeName(schema.getElementType()) + ">";
      case MAP:
        return "map<string," + typeName(schema.getValueType()) + ">";
      case UNION:
        StringJoiner j = new StringJoiner(", ", "union [", "]");
        for (Schema branch : schema.getTypes()) {
          j.add(typeName(branch));
        }
        return j.toString();
      default:
        return schema.getType().getName();
    }
  }

  /** What a value of {@code schema} looks like, for the "expected ..." part of a message. */
  static String expected(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
      return decimal((LogicalTypes.Decimal) schema.getLogicalType());
    }
    String logical = Schemas.logicalName(schema);
    if (logical != null) {
      String text = logical(logical, schema);
      if (text != null) {
        return text;
      }
    }
    switch (schema.getType()) {
      case NULL:
        return "null";
      case BOOLEAN:
        return "true or false";
      case INT:
        return "a whole number between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE;
      case LONG:
        return "a whole number";
      case FLOAT:
      case DOUBLE:
        return "a number";
      case STRING:
        return "a string";
      case BYTES:
        return "base64-encoded bytes";
      case FIXED:
        return "base64-encoded bytes of length " + schema.getFixedSize();
      case ENUM:
        return "one of " + symbols(schema.getEnumSymbols());
      case RECORD:
        return "an object with fields " + fieldNames(schema);
      case ARRAY:
        return "an array of " + typeName(schema.getElementType());
      case MAP:
        return "an object mapping strings to " + typeName(schema.getValueType());
      case UNION:
        StringJoiner j = new StringJoiner(" or ");
        for (Schema branch : schema.getTypes()) {
          j.add(branch.getType() == Schema.Type.NULL ? "null" : typeName(branch));
        }
        return j.toString();
      default:
        return typeName(schema);
    }
  }

  private static String logical(String name, Schema schema) {
    TimeUnit unit = TimeUnit.ofLogicalType(name);
    switch (name) {
      case "date":
        return "an ISO-8601 date like 2024-01-31, or days since 1970-01-01";
      case "time-millis":
      case "time-micros":
        return "a time of day like 10:15:30." + "123456789".substring(0, unit.digits) + ", or " + unit.plural
            + " since midnight";
      case "timestamp-millis":
      case "timestamp-micros":
      case "timestamp-nanos":
        return "an ISO-8601 timestamp like 2024-01-31T10:15:30." + "123456789".substring(0, unit.digits)
            + "Z, or " + unit.plural + " since 1970-01-01T00:00:00Z";
      case "local-timestamp-millis":
      case "local-timestamp-micros":
      case "local-timestamp-nanos":
        return "a date-time without time zone like 2024-01-31T10:15:30." + "123456789".substring(0, unit.digits)
            + ", or " + unit.plural + " since 1970-01-01T00:00:00";
      case "uuid":
        return "a UUID like 123e4567-e89b-12d3-a456-426614174000";
      case "big-decimal":
        return "a decimal number";
      default:
        return null;
    }
  }

  /** The expectation for a decimal type. */
  static String decimal(LogicalTypes.Decimal d) {
    return "a decimal number with at most " + d.getPrecision() + " digits, " + d.getScale() + " of them after the point";
  }

  /** A text value quoted as JSON would, shortened if long. */
  static String quote(String text) {
    StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX_SHOWN) + 8).append('"');
    int n = Math.min(text.length(), MAX_SHOWN);
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    if (text.length() > MAX_SHOWN) {
      sb.append('…');
    }
    return sb.append('"').toString();
  }

  /** A number's text shown as is, shortened if long. */
  static String number(String text) {
    return text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "…" : text;
  }

  static String symbols(List<String> symbols) {
    if (symbols.size() <= 20) {
      return symbols.toString();
    }
    return symbols.subList(0, 20).toString().replace("]", ", …]");
  }

  private static String fieldNames(Schema record) {
    StringJoiner j = new StringJoiner(", ", "[", "]");
    int n = 0;
    for (Schema.Field f : record.getFields()) {
      if (n++ == 20) {
        j.add("…");
        break;
      }
      j.add(f.name());
    }
    return j.toString();
  }

  /** "a long", "an int": the type name with its article, for "... is not a long". */
  static String article(String typeName) {
    if (typeName.startsWith("uuid") || typeName.startsWith("union")) {
      return "a " + typeName;
    }
    char c = Character.toLowerCase(typeName.charAt(0));
    return (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' ? "an " : "a ") + typeName;
  }
}
