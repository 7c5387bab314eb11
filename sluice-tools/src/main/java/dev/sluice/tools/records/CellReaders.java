package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import dev.sluice.api.ConfigKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Turns CSV cells into values of a field's schema. An empty unquoted cell is null; a quoted empty cell
 * ({@code ""}) is the empty string for string and bytes types and null for the others. For a non-nullable
 * field an empty cell takes the field default, if it has one. Scalars are parsed as
 * text (surrounding spaces ignored except for strings); records, arrays and maps are JSON text in the cell.
 */
final class CellReaders {
  private CellReaders() {
  }

  /** Reads one cell. */
  interface CellReader {
    /**
     * The value of a cell.
     *
     * @throws FieldError when the cell does not hold a value of the schema
     */
    Object read(String text, boolean quoted);
  }

  /** The reader for the cells of {@code field}; an empty cell of a non-nullable field takes the field's default. */
  static CellReader compile(Schema.Field field, InputOptions options) {
    Schema schema = field.schema();
    boolean nullable = Schemas.isNullable(schema);
    Missing missing = Missing.of(field);
    Schema inner = Schemas.unwrapNullable(schema);
    TextParser parse = valueParser(inner, options);
    boolean emptyIsValue = emptyIsValue(inner);
    String expected = Describe.expected(schema);
    return (text, quoted) -> {
      if (text.isEmpty() && (!quoted || !emptyIsValue)) {
        if (nullable) {
          return null;
        }
        if (!missing.required()) {
          return missing.value();
        }
        throw new FieldError("is empty", expected + (emptyIsValue ? " (an empty unquoted cell is null; write \"\" for empty)" : ""));
      }
      return parse.parse(text);
    };
  }

  private static boolean emptyIsValue(Schema schema) {
    if (schema.getLogicalType() != null) {
      return false;
    }
    switch (schema.getType()) {
      case STRING:
      case BYTES:
        return true;
      case UNION:
        for (Schema b : schema.getTypes()) {
          if (emptyIsValue(b)) {
            return true;
          }
        }
        return false;
      default:
        return false;
    }
  }

  /** A parser for non-empty cell text. */
  private static TextParser valueParser(Schema schema, InputOptions options) {
    switch (schema.getType()) {
      case RECORD:
      case ARRAY:
      case MAP:
        return json(schema, options);
      case UNION:
        List<TextParser> branches = new ArrayList<>();
        for (Schema b : schema.getTypes()) {
          if (b.getType() != Schema.Type.NULL) {
            branches.add(valueParser(b, options));
          }
        }
        return text -> {
          for (TextParser b : branches) {
            try {
              return b.parse(text);
            } catch (FieldError e) {
              // This branch does not fit; the next one may.
              continue;
            }
          }
          throw new FieldError(Describe.quote(text) + " does not fit any type of the " + Describe.typeName(schema),
              Describe.expected(schema));
        };
      case STRING:
        if (schema.getLogicalType() == null) {
          return TextValues.parser(schema);
        }
        return trimmed(TextValues.parser(schema));
      default:
        return trimmed(TextValues.parser(schema));
    }
  }

  private static TextParser trimmed(TextParser parser) {
    return text -> parser.parse(text.strip());
  }

  /** JSON text in a cell, read like a JSON Lines value. */
  private static TextParser json(Schema schema, InputOptions options) {
    JsonValueReader reader = JsonReaders.compile(schema, options);
    JsonFactory factory = JsonLinesSource.factory(options);
    return text -> {
      try (JsonParser p = factory.createParser(text)) {
        p.nextToken();
        Object value = reader.read(p);
        if (p.nextToken() != null) {
          throw new FieldError("has text after the JSON value", "one JSON value (" + Describe.expected(schema) + ")");
        }
        return value;
      } catch (StreamConstraintsException e) {
        throw new FieldError("holds JSON over a limit (" + JsonLinesSource.cleanMessage(e.getOriginalMessage()) + ")",
            "JSON nested at most " + options.maxNestingDepth() + " levels deep (raise "
                + ConfigKeys.INPUT_MAX_NESTING_DEPTH.name() + " to allow more)");
      } catch (StreamReadException e) {
        throw new FieldError(Describe.quote(text) + " is not valid JSON (" + JsonLinesSource.cleanMessage(e.getOriginalMessage()) + ")",
            "JSON text for " + Describe.expected(schema));
      } catch (IOException e) {
        throw new FieldError("cannot be read as JSON (" + e.getMessage() + ")", Describe.expected(schema));
      }
    };
  }
}
