package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * A small column-list language for table schemas, as given on the command line:
 * {@code id string not null, ts timestamp, amount decimal(10,2), tags array<string>, attrs map<string,string>,
 * addr struct<city:string,zip:int>}. Types (case-insensitive): string, int/integer, long/bigint, float, double,
 * boolean/bool, bytes/binary, date, timestamp (microseconds), timestamp_millis, timestamp_micros, timestamp_ntz
 * (local, microseconds), time (microseconds), time_millis, uuid, decimal(p,s) (bytes-backed, p up to 38),
 * array&lt;T&gt;, map&lt;string,T&gt;, struct&lt;name:T,...&gt;. Every column, struct field, array element and map value is
 * nullable (a union with null first, default null) unless followed by {@code not null}.
 */
public final class SchemaDdl {
  private static final String TYPES = "string, int, long, float, double, boolean, bytes, date, timestamp, timestamp_millis, "
      + "timestamp_ntz, time, time_millis, uuid, decimal(p,s), array<T>, map<string,T>, struct<name:T,...>";
  private static final int MAX_PRECISION = 38;

  private final String text;
  private int pos;
  private String column = "";

  private SchemaDdl(String text) {
    this.text = text;
  }

  /**
   * Parses a column list into a record schema named {@code recordName} (which may carry a namespace,
   * {@code ns.Name}).
   *
   * @throws SluiceException (BAD_CONFIG) naming the column and position of the first mistake
   */
  public static Schema parse(String columns, String recordName) {
    SchemaDdl p = new SchemaDdl(columns);
    Schema probe;
    try {
      probe = Schema.createRecord(recordName, null, null, false, List.of());
    } catch (SchemaParseException e) {
      throw SluiceException.badRequest("Invalid record name '" + recordName + "'", e.getMessage(),
          "Use letters, digits and '_' (not starting with a digit), with '.' between namespace parts.");
    }
    List<Schema.Field> fields = p.fields(probe.getFullName(), true);
    p.skipSpace();
    if (p.pos < columns.length()) {
      throw p.error("unexpected '" + columns.charAt(p.pos) + "'", "Separate columns with commas.");
    }
    if (fields.isEmpty()) {
      throw p.error("no columns", "Give at least one column as 'name type'.");
    }
    return Schema.createRecord(recordName, null, null, false, fields);
  }

  /** Fields up to the end of the text (top level) or a closing '>' (inside struct&lt;...&gt;). */
  private List<Schema.Field> fields(String parentFullName, boolean topLevel) {
    List<Schema.Field> fields = new ArrayList<>();
    Set<String> names = new HashSet<>();
    String outer = column;
    while (true) {
      skipSpace();
      if (atEnd() || !topLevel && peek() == '>') {
        break;
      }
      int start = pos;
      String name = identifier("a column name");
      column = topLevel ? name : outer + "." + name;
      if (!names.add(name.toLowerCase(Locale.ROOT))) {
        pos = start;
        throw error("column '" + name + "' is given twice", "Give each column once (names are compared ignoring case).");
      }
      skipSpace();
      if (!topLevel && !atEnd() && peek() == ':') {
        pos++;
      }
      Schema type = type(name, parentFullName);
      fields.add(field(name, type, notNull()));
      skipSpace();
      if (atEnd() || !topLevel && peek() == '>') {
        break;
      }
      expect(',', "a comma before the next column");
    }
    column = outer;
    return fields;
  }

  private static Schema.Field field(String name, Schema type, boolean notNull) {
    if (notNull) {
      return new Schema.Field(name, type);
    }
    return new Schema.Field(name, nullable(type), null, Schema.Field.NULL_DEFAULT_VALUE);
  }

  private static Schema nullable(Schema type) {
    return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
  }

  private boolean notNull() {
    skipSpace();
    int save = pos;
    if (!atEnd() && Character.isLetter(peek())) {
      String word = identifier("");
      if (word.equalsIgnoreCase("not")) {
        skipSpace();
        int at = pos;
        String next = atEnd() || !Character.isLetter(peek()) ? "" : identifier("");
        if (!next.equalsIgnoreCase("null")) {
          pos = at;
          throw error("expected 'null' after 'not'", "Write 'not null' to make a column required.");
        }
        return true;
      }
    }
    pos = save;
    return false;
  }

  private Schema type(String name, String parentFullName) {
    skipSpace();
    int start = pos;
    if (atEnd() || !Character.isLetter(peek())) {
      throw error("expected a type", "Use one of: " + TYPES + ".");
    }
    String word = identifier("a type").toLowerCase(Locale.ROOT);
    switch (word) {
      case "string":
        return Schema.create(Schema.Type.STRING);
      case "int":
      case "integer":
        return Schema.create(Schema.Type.INT);
      case "long":
      case "bigint":
        return Schema.create(Schema.Type.LONG);
      case "float":
        return Schema.create(Schema.Type.FLOAT);
      case "double":
        return Schema.create(Schema.Type.DOUBLE);
      case "boolean":
      case "bool":
        return Schema.create(Schema.Type.BOOLEAN);
      case "bytes":
      case "binary":
        return Schema.create(Schema.Type.BYTES);
      case "date":
        return logical(LogicalTypes.date(), Schema.Type.INT);
      case "timestamp":
      case "timestamp_micros":
        return logical(LogicalTypes.timestampMicros(), Schema.Type.LONG);
      case "timestamp_millis":
        return logical(LogicalTypes.timestampMillis(), Schema.Type.LONG);
      case "timestamp_ntz":
        return logical(LogicalTypes.localTimestampMicros(), Schema.Type.LONG);
      case "time":
      case "time_micros":
        return logical(LogicalTypes.timeMicros(), Schema.Type.LONG);
      case "time_millis":
        return logical(LogicalTypes.timeMillis(), Schema.Type.INT);
      case "uuid":
        return logical(LogicalTypes.uuid(), Schema.Type.STRING);
      case "decimal":
      case "numeric":
        return decimal();
      case "array": {
        expect('<', "'<' after array");
        Schema element = elementType(name, parentFullName);
        expect('>', "'>' to close array<...>");
        return Schema.createArray(element);
      }
      case "map": {
        expect('<', "'<' after map");
        skipSpace();
        int keyAt = pos;
        Schema key = type(name, parentFullName);
        if (key.getType() != Schema.Type.STRING || key.getLogicalType() != null) {
          pos = keyAt;
          throw error("map keys must be string", "Write map<string, T>.");
        }
        expect(',', "a comma between the map's key and value types");
        Schema value = elementType(name, parentFullName);
        expect('>', "'>' to close map<...>");
        return Schema.createMap(value);
      }
      case "struct": {
        expect('<', "'<' after struct");
        String fullName = parentFullName + "." + name;
        List<Schema.Field> fields = fields(fullName, false);
        if (fields.isEmpty()) {
          throw error("a struct needs at least one field", "Write struct<name:type, ...>.");
        }
        expect('>', "'>' to close struct<...>");
        return Schema.createRecord(name, null, parentFullName, false, fields);
      }
      default:
        pos = start;
        throw error("unknown type '" + word + "'", "Use one of: " + TYPES + ".");
    }
  }

  /** An array element or map value type: nullable unless followed by {@code not null}. */
  private Schema elementType(String name, String parentFullName) {
    Schema t = type(name, parentFullName);
    return notNull() ? t : nullable(t);
  }

  private Schema decimal() {
    expect('(', "'(' after decimal, as in decimal(10,2)");
    int at = pos;
    int precision = number("the precision");
    int scale = 0;
    skipSpace();
    if (!atEnd() && peek() == ',') {
      pos++;
      scale = number("the scale");
    }
    expect(')', "')' to close decimal(p,s)");
    if (precision < 1 || precision > MAX_PRECISION || scale > precision) {
      pos = at;
      throw error("decimal(" + precision + "," + scale + ") is out of range",
          "Use a precision from 1 to " + MAX_PRECISION + " and a scale from 0 to the precision.");
    }
    return logical(LogicalTypes.decimal(precision, scale), Schema.Type.BYTES);
  }

  private static Schema logical(LogicalType type, Schema.Type physical) {
    return type.addToSchema(Schema.create(physical));
  }

  private int number(String what) {
    skipSpace();
    int start = pos;
    while (!atEnd() && Character.isDigit(peek())) {
      pos++;
    }
    if (start == pos || pos - start > 4) {
      pos = start;
      throw error("expected " + what + " (a whole number)", "Write decimal(precision, scale), e.g. decimal(10,2).");
    }
    return Integer.parseInt(text.substring(start, pos));
  }

  private String identifier(String what) {
    skipSpace();
    int start = pos;
    if (!atEnd() && (Character.isLetter(peek()) && peek() < 128 || peek() == '_')) {
      pos++;
      while (!atEnd() && (peek() < 128 && Character.isLetterOrDigit(peek()) || peek() == '_')) {
        pos++;
      }
    }
    if (start == pos) {
      throw error("expected " + what + (atEnd() ? "" : ", found '" + peek() + "'"),
          "Names start with a letter or '_' and hold only letters, digits and '_'.");
    }
    return text.substring(start, pos);
  }

  private void expect(char c, String what) {
    skipSpace();
    if (atEnd() || peek() != c) {
      throw error("expected " + what + (atEnd() ? "" : ", found '" + peek() + "'"), null);
    }
    pos++;
  }

  private void skipSpace() {
    while (!atEnd() && Character.isWhitespace(peek())) {
      pos++;
    }
  }

  private boolean atEnd() {
    return pos >= text.length();
  }

  private char peek() {
    return text.charAt(pos);
  }

  private SluiceException error(String problem, String fix) {
    String where = column.isEmpty() ? "" : " in column '" + column + "'";
    return SluiceException.badRequest("Invalid column list", problem + where + " at position " + (pos + 1),
        fix == null ? "Write columns as 'name type, ...'." : fix);
  }

  /**
   * A copy of {@code schema} whose named fields are not nullable: a {@code [null, T]} union becomes {@code T}
   * and a null default is dropped. Names may be dotted paths into nested records ({@code addr.city}); every
   * record on the path becomes non-nullable too. Used for the record key and precombine fields.
   *
   * @throws SluiceException (BAD_CONFIG) when a name is not a field
   */
  public static Schema requireFields(Schema schema, Collection<String> fields) {
    Schema out = schema;
    for (String path : fields) {
      out = require(out, path.split("\\.", -1), 0, path);
    }
    return out;
  }

  private static Schema require(Schema record, String[] path, int depth, String fullPath) {
    Schema.Field target = record.getField(path[depth]);
    if (target == null) {
      List<String> names = new ArrayList<>();
      for (Schema.Field f : record.getFields()) {
        names.add(f.name());
      }
      throw SluiceException.badRequest("Cannot use field '" + fullPath + "'", "the schema has no field '" + path[depth] + "'"
          + (depth > 0 ? " in '" + String.join(".", Arrays.copyOf(path, depth)) + "'" : ""),
          "Use one of: " + String.join(", ", names) + ".");
    }
    List<Schema.Field> copy = new ArrayList<>();
    for (Schema.Field f : record.getFields()) {
      if (f != target) {
        copy.add(new Schema.Field(f, f.schema()));
        continue;
      }
      Schema type = nonNull(f.schema());
      if (depth + 1 < path.length) {
        if (type.getType() != Schema.Type.RECORD) {
          throw SluiceException.badRequest("Cannot use field '" + fullPath + "'", "'" + path[depth] + "' is not a struct",
              "Name a top-level column or a field inside struct columns.");
        }
        type = require(type, path, depth + 1, fullPath);
      }
      Object def = f.hasDefaultValue() && f.defaultVal() != JsonProperties.NULL_VALUE ? f.defaultVal() : null;
      Schema.Field nf = new Schema.Field(f.name(), type, f.doc(), def, f.order());
      f.aliases().forEach(nf::addAlias);
      f.getObjectProps().forEach(nf::addProp);
      copy.add(nf);
    }
    Schema result = Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), record.isError(), copy);
    record.getObjectProps().forEach(result::addProp);
    record.getAliases().forEach(result::addAlias);
    return result;
  }

  private static Schema nonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    List<Schema> rest = new ArrayList<>();
    for (Schema b : schema.getTypes()) {
      if (b.getType() != Schema.Type.NULL) {
        rest.add(b);
      }
    }
    return rest.size() == 1 ? rest.get(0) : Schema.createUnion(rest);
  }

  /**
   * The column list for a schema made of the types this language knows, so that {@code parse(format(s), name)}
   * gives {@code s} back for schemas {@link #parse} made. Other types are written by their Avro names.
   */
  public static String format(Schema record) {
    StringJoiner j = new StringJoiner(", ");
    for (Schema.Field f : record.getFields()) {
      j.add(f.name() + " " + typeText(f.schema()));
    }
    return j.toString();
  }

  private static String typeText(Schema schema) {
    Schema inner = Schemas.singleNonNull(schema);
    if (inner != null && schema.getTypes().get(0).getType() == Schema.Type.NULL) {
      return bare(inner);
    }
    return bare(schema) + " not null";
  }

  private static String bare(Schema s) {
    if (s.getLogicalType() instanceof LogicalTypes.Decimal) {
      LogicalTypes.Decimal d = (LogicalTypes.Decimal) s.getLogicalType();
      return "decimal(" + d.getPrecision() + "," + d.getScale() + ")";
    }
    String logical = Schemas.logicalName(s);
    if (logical != null) {
      switch (logical) {
        case "date":
          return "date";
        case "timestamp-micros":
          return "timestamp";
        case "timestamp-millis":
          return "timestamp_millis";
        case "local-timestamp-micros":
          return "timestamp_ntz";
        case "time-micros":
          return "time";
        case "time-millis":
          return "time_millis";
        case "uuid":
          return "uuid";
        default:
          break;
      }
    }
    switch (s.getType()) {
      case ARRAY:
        return "array<" + typeText(s.getElementType()) + ">";
      case MAP:
        return "map<string, " + typeText(s.getValueType()) + ">";
      case RECORD: {
        StringJoiner j = new StringJoiner(", ", "struct<", ">");
        for (Schema.Field f : s.getFields()) {
          j.add(f.name() + ": " + typeText(f.schema()));
        }
        return j.toString();
      }
      default:
        return s.getType().getName();
    }
  }
}
