package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * Reads a scalar (primitive, enum, fixed or logical type) from one JSON token. Strings go through
 * {@link TextValues}; numbers are read exactly from the token text. In strict mode (union branches) numeric
 * types take only number tokens, so a union {@code [long, string]} keeps {@code "12"} a string.
 */
final class ScalarReader implements JsonValueReader {
  private enum Kind { NULL, BOOLEAN, INT, LONG, FLOAT, DOUBLE, DECIMAL, BIG_DECIMAL, DATE, TIME, TIMESTAMP, TEXT_ONLY }

  private final Schema schema;
  private final Kind kind;
  private final TextParser text;
  private final boolean strict;
  private final TimeUnit unit;

  ScalarReader(Schema schema, boolean strict) {
    this.schema = schema;
    this.strict = strict;
    this.kind = kindOf(schema);
    this.text = schema.getType() == Schema.Type.NULL ? null : TextValues.parser(schema);
    this.unit = TimeUnit.of(schema);
  }

  private static Kind kindOf(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
      return Kind.DECIMAL;
    }
    String logical = Schemas.logicalName(schema);
    if ("big-decimal".equals(logical) && schema.getType() == Schema.Type.BYTES) {
      return Kind.BIG_DECIMAL;
    }
    if ("date".equals(logical) && schema.getType() == Schema.Type.INT) {
      return Kind.DATE;
    }
    if (logical != null && logical.startsWith("time-")) {
      return Kind.TIME;
    }
    if (logical != null && logical.contains("timestamp-")) {
      return Kind.TIMESTAMP;
    }
    switch (schema.getType()) {
      case NULL:
        return Kind.NULL;
      case BOOLEAN:
        return Kind.BOOLEAN;
      case INT:
        return Kind.INT;
      case LONG:
        return Kind.LONG;
      case FLOAT:
        return Kind.FLOAT;
      case DOUBLE:
        return Kind.DOUBLE;
      default:
        return Kind.TEXT_ONLY;
    }
  }

  @Override
  public boolean accepts(JsonToken token) {
    switch (token) {
      case VALUE_NULL:
        return kind == Kind.NULL;
      case VALUE_TRUE:
      case VALUE_FALSE:
        return kind == Kind.BOOLEAN;
      case VALUE_NUMBER_INT:
        return kind != Kind.NULL && kind != Kind.BOOLEAN && kind != Kind.TEXT_ONLY;
      case VALUE_NUMBER_FLOAT:
        return kind == Kind.FLOAT || kind == Kind.DOUBLE || kind == Kind.DECIMAL || kind == Kind.BIG_DECIMAL
            || !strict && (kind == Kind.INT || kind == Kind.LONG);
      case VALUE_STRING:
        return kind != Kind.NULL && !(strict && (kind == Kind.INT || kind == Kind.LONG || kind == Kind.BOOLEAN));
      default:
        return false;
    }
  }

  @Override
  public Object read(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    switch (t) {
      case VALUE_STRING:
        if (kind == Kind.NULL) {
          break;
        }
        if (strict && !accepts(t)) {
          break;
        }
        String s = p.getText();
        if (strict && (kind == Kind.FLOAT || kind == Kind.DOUBLE) && !isNonFinite(s)) {
          break;
        }
        return text.parse(s);
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        if (accepts(t)) {
          return number(p, t);
        }
        break;
      case VALUE_TRUE:
        if (kind == Kind.BOOLEAN) {
          return Boolean.TRUE;
        }
        break;
      case VALUE_FALSE:
        if (kind == Kind.BOOLEAN) {
          return Boolean.FALSE;
        }
        break;
      case VALUE_NULL:
        if (kind == Kind.NULL) {
          return null;
        }
        break;
      default:
        break;
    }
    throw JsonReaders.mismatch(p, schema);
  }

  private static boolean isNonFinite(String s) {
    return "NaN".equals(s) || "Infinity".equals(s) || "-Infinity".equals(s) || "+Infinity".equals(s);
  }

  private Object number(JsonParser p, JsonToken t) throws IOException {
    switch (kind) {
      case INT:
        return TextValues.intValue(whole(p, t), Describe.number(p.getText()), schema);
      case LONG:
      case TIMESTAMP:
        return whole(p, t);
      case DATE:
        return TextValues.dateValue(whole(p, t), Describe.number(p.getText()), schema);
      case TIME:
        return TextValues.timeValue(whole(p, t), unit, Describe.number(p.getText()), schema);
      case FLOAT: {
        // Parse the token text as a float directly: going through double could round twice.
        float f = TextValues.parseFloat(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (Float.isInfinite(f)) {
          throw TextValues.outOfRange(Describe.number(p.getText()), schema);
        }
        return f;
      }
      case DOUBLE: {
        double d = p.getDoubleValue();
        if (Double.isInfinite(d)) {
          throw TextValues.outOfRange(Describe.number(p.getText()), schema);
        }
        return d;
      }
      case DECIMAL: {
        BigDecimal v = p.getDecimalValue();
        return TextValues.decimal(v, (LogicalTypes.Decimal) schema.getLogicalType(), schema, Describe.number(p.getText()));
      }
      case BIG_DECIMAL:
        return Decimals.encodeBig(p.getDecimalValue());
      default:
        throw JsonReaders.mismatch(p, schema);
    }
  }

  private long whole(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_INT) {
      JsonParser.NumberType nt = p.getNumberType();
      if (nt == JsonParser.NumberType.INT || nt == JsonParser.NumberType.LONG) {
        return p.getLongValue();
      }
      throw TextValues.outOfRange(Describe.number(p.getText()), schema);
    }
    return TextValues.wholeOf(p.getDecimalValue(), Describe.number(p.getText()), schema);
  }
}
