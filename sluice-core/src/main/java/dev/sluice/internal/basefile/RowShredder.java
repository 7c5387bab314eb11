package dev.sluice.internal.basefile;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Writes Avro records straight into Parquet's column writers: the same values, repetition and definition levels
 * that parquet-avro's write support sends through Parquet's record consumer (two-level lists, as Hudi writes them),
 * without the consumer's per-field state machine and the write support's per-value schema dispatch. The schema
 * walk is compiled once per file; {@link #compile} declines schemas whose layout it does not reproduce exactly
 * (non-null unions, logical types on groups, UUID strings, nullable list elements), and the writer then uses
 * parquet-avro.
 */
final class RowShredder {
  private final Group root;
  private final List<Leaf> leaves;

  private RowShredder(Group root, List<Leaf> leaves) {
    this.root = root;
    this.leaves = leaves;
  }

  /** The shredder for records of {@code avro} written as {@code parquet}, if it reproduces that layout. */
  static Optional<RowShredder> compile(Schema avro, MessageType parquet, GenericData model) {
    if (avro.getType() != Schema.Type.RECORD || avro.getLogicalType() != null) {
      return Optional.empty();
    }
    List<Leaf> leaves = new ArrayList<>();
    Group root = group(avro, parquet, parquet, new ArrayList<>(), 0, 0, model, leaves);
    if (root == null || leaves.size() != parquet.getColumns().size()) {
      return Optional.empty();
    }
    return Optional.of(new RowShredder(root, List.copyOf(leaves)));
  }

  /** Points the leaves at the column writers of a new row group. */
  void bind(ColumnWriteStore store) {
    for (Leaf l : leaves) {
      l.writer = store.getColumnWriter(l.column);
    }
  }

  /** Writes one record and ends it. Values of the wrong class fail as parquet-avro's writer fails. */
  void write(IndexedRecord record, ColumnWriteStore store) {
    root.write(record, 0, 0);
    store.endRecord();
  }

  // ---- compilation ----

  /** A record against a group; {@code def}/{@code rep} are the levels of the group when present. */
  private static Group group(Schema avro, GroupType parquet, MessageType message, List<String> path, int def,
      int rep, GenericData model, List<Leaf> leaves) {
    List<Field> fields = new ArrayList<>();
    int index = 0;
    for (Schema.Field f : avro.getFields()) {
      if (f.schema().getType() == Schema.Type.NULL) {
        continue; // parquet-avro writes no column for a null-typed field
      }
      if (index >= parquet.getFieldCount()) {
        return null;
      }
      Type type = parquet.getType(index++);
      Schema valueSchema = OptionalSchemas.nonNull(f.schema());
      if (valueSchema == null) {
        return null;
      }
      boolean optional = type.isRepetition(Type.Repetition.OPTIONAL);
      if (optional != (valueSchema != f.schema()) || type.isRepetition(Type.Repetition.REPEATED)) {
        return null;
      }
      List<String> p = new ArrayList<>(path);
      p.add(type.getName());
      Node node = node(valueSchema, type, message, p, optional ? def + 1 : def, rep, model, leaves);
      if (node == null) {
        return null;
      }
      fields.add(new Field(f.name(), f.pos(), optional, node));
    }
    return index == parquet.getFieldCount() ? new Group(fields.toArray(new Field[0])) : null;
  }

  private static Node node(Schema avro, Type type, MessageType message, List<String> path, int def, int rep,
      GenericData model, List<Leaf> leaves) {
    switch (avro.getType()) {
      case RECORD:
        return avro.getLogicalType() != null || type.isPrimitive() ? null
            : group(avro, type.asGroupType(), message, path, def, rep, model, leaves);
      case ARRAY:
        return avro.getLogicalType() != null ? null : list(avro, type, message, path, def, rep, model, leaves);
      case MAP:
        return avro.getLogicalType() != null ? null : map(avro, type, message, path, def, rep, model, leaves);
      case UNION:
      case NULL:
        return null;
      default:
        return leaf(avro, type, message, path, def, rep, model, leaves);
    }
  }

  /** {@code group (LIST) { repeated <element> array; }}: parquet-avro's old list structure. */
  private static Node list(Schema avro, Type type, MessageType message, List<String> path, int def, int rep,
      GenericData model, List<Leaf> leaves) {
    if (type.isPrimitive() || type.asGroupType().getFieldCount() != 1) {
      return null;
    }
    Type element = type.asGroupType().getType(0);
    Schema elementSchema = avro.getElementType();
    if (!element.isRepetition(Type.Repetition.REPEATED) || OptionalSchemas.nonNull(elementSchema) != elementSchema) {
      return null;
    }
    List<String> p = new ArrayList<>(path);
    p.add(element.getName());
    Node e = node(elementSchema, element, message, p, def + 1, rep + 1, model, leaves);
    return e == null ? null : new ListNode(e, rep + 1);
  }

  /** {@code group (MAP) { repeated group key_value { required binary key (STRING); <value> value; } }}. */
  private static Node map(Schema avro, Type type, MessageType message, List<String> path, int def, int rep,
      GenericData model, List<Leaf> leaves) {
    if (type.isPrimitive() || type.asGroupType().getFieldCount() != 1) {
      return null;
    }
    Type kv = type.asGroupType().getType(0);
    if (kv.isPrimitive() || !kv.isRepetition(Type.Repetition.REPEATED) || kv.asGroupType().getFieldCount() != 2) {
      return null;
    }
    Type keyType = kv.asGroupType().getType(0);
    Type valueType = kv.asGroupType().getType(1);
    List<String> kvPath = new ArrayList<>(path);
    kvPath.add(kv.getName());
    if (!keyType.isRepetition(Type.Repetition.REQUIRED)) {
      return null;
    }
    List<String> keyPath = new ArrayList<>(kvPath);
    keyPath.add(keyType.getName());
    Node key = leaf(Schema.create(Schema.Type.STRING), keyType, message, keyPath, def + 1, rep + 1, model, leaves);
    Schema valueSchema = OptionalSchemas.nonNull(avro.getValueType());
    if (key == null || valueSchema == null) {
      return null;
    }
    boolean optional = valueType.isRepetition(Type.Repetition.OPTIONAL);
    if (optional != (valueSchema != avro.getValueType())) {
      return null;
    }
    List<String> valuePath = new ArrayList<>(kvPath);
    valuePath.add(valueType.getName());
    Node value = node(valueSchema, valueType, message, valuePath, optional ? def + 2 : def + 1, rep + 1, model,
        leaves);
    return value == null ? null : new MapNode((Leaf) key, value, optional, rep + 1);
  }

  private static Node leaf(Schema avro, Type type, MessageType message, List<String> path, int def, int rep,
      GenericData model, List<Leaf> leaves) {
    if (!type.isPrimitive()) {
      return null;
    }
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    if (annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
      return null;
    }
    ColumnDescriptor column;
    try {
      column = message.getColumnDescription(path.toArray(new String[0]));
    } catch (RuntimeException e) {
      return null;
    }
    // the levels this walk computes must be Parquet's own, or the file would be garbage
    if (column.getMaxDefinitionLevel() != def || column.getMaxRepetitionLevel() != rep) {
      return null;
    }
    Leaf l = new Leaf(avro, avro.getLogicalType(), model, column);
    leaves.add(l);
    return l;
  }

  // ---- the compiled tree ----

  /** One part of the schema: writes a present value, or nulls for every column under it. */
  private abstract static class Node {
    /** Writes {@code value} (not null) with repetition level {@code r}; {@code d} is this node's level. */
    abstract void write(Object value, int r, int d);

    /** Writes a null with levels {@code r}, {@code d} into every column under this node. */
    abstract void writeNulls(int r, int d);
  }

  private record Field(String name, int pos, boolean optional, Node node) {
  }

  private static final class Group extends Node {
    private final Field[] fields;

    Group(Field[] fields) {
      this.fields = fields;
    }

    @Override
    void write(Object value, int r, int d) {
      IndexedRecord record = (IndexedRecord) value;
      for (Field f : fields) {
        Object v = record.get(f.pos());
        if (v != null) {
          f.node().write(v, r, f.optional() ? d + 1 : d);
        } else if (f.optional()) {
          f.node().writeNulls(r, d);
        } else {
          throw new IllegalArgumentException("Null-value for required field: " + f.name());
        }
      }
    }

    @Override
    void writeNulls(int r, int d) {
      for (Field f : fields) {
        f.node().writeNulls(r, d);
      }
    }
  }

  private static final class ListNode extends Node {
    private final Node element;
    private final int repeatLevel;

    ListNode(Node element, int repeatLevel) {
      this.element = element;
      this.repeatLevel = repeatLevel;
    }

    @Override
    void write(Object value, int r, int d) {
      Collection<?> items = (Collection<?>) value;
      if (items.isEmpty()) {
        element.writeNulls(r, d);
        return;
      }
      int level = r;
      int i = 0;
      for (Object item : items) {
        if (item == null) {
          throw new IllegalArgumentException("Array contains a null element at " + i);
        }
        element.write(item, level, d + 1);
        level = repeatLevel;
        i++;
      }
    }

    @Override
    void writeNulls(int r, int d) {
      element.writeNulls(r, d);
    }
  }

  private static final class MapNode extends Node {
    private final Leaf key;
    private final Node value;
    private final boolean valueOptional;
    private final int repeatLevel;

    MapNode(Leaf key, Node value, boolean valueOptional, int repeatLevel) {
      this.key = key;
      this.value = value;
      this.valueOptional = valueOptional;
      this.repeatLevel = repeatLevel;
    }

    @Override
    void write(Object v, int r, int d) {
      Map<?, ?> map = (Map<?, ?>) v;
      if (map.isEmpty()) {
        writeNulls(r, d);
        return;
      }
      int level = r;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        key.write(e.getKey(), level, d + 1);
        Object val = e.getValue();
        if (val != null) {
          value.write(val, level, valueOptional ? d + 2 : d + 1);
        } else if (valueOptional) {
          value.writeNulls(level, d + 1);
        } else {
          throw new IllegalArgumentException("Null map value for key " + e.getKey());
        }
        level = repeatLevel;
      }
    }

    @Override
    void writeNulls(int r, int d) {
      key.writeNulls(r, d);
      value.writeNulls(r, d);
    }
  }

  private static final class Leaf extends Node {
    private final Schema schema;
    private final Schema.Type type;
    private final LogicalType logicalType;
    private final GenericData model;
    private final ColumnDescriptor column;
    private ColumnWriter writer;

    Leaf(Schema schema, LogicalType logicalType, GenericData model, ColumnDescriptor column) {
      this.schema = schema;
      this.type = schema.getType();
      this.logicalType = logicalType;
      this.model = model;
      this.column = column;
    }

    @Override
    void write(Object value, int r, int d) {
      Object v = value;
      if (logicalType != null) {
        Conversion<?> conversion = model.getConversionByClass(v.getClass(), logicalType);
        if (conversion != null) {
          v = Conversions.convertToRawType(v, schema, logicalType, conversion);
        }
      }
      switch (type) {
        case BOOLEAN -> writer.write((Boolean) v, r, d);
        case INT -> writer.write(v instanceof Character c ? c : ((Number) v).intValue(), r, d);
        case LONG -> writer.write(((Number) v).longValue(), r, d);
        case FLOAT -> writer.write(((Number) v).floatValue(), r, d);
        case DOUBLE -> writer.write(((Number) v).doubleValue(), r, d);
        case STRING -> writer.write(string(v), r, d);
        case ENUM -> writer.write(Binary.fromString(v.toString()), r, d);
        case FIXED -> writer.write(Binary.fromReusedByteArray(((GenericFixed) v).bytes()), r, d);
        case BYTES -> writer.write(v instanceof byte[] b ? Binary.fromReusedByteArray(b)
            : Binary.fromReusedByteBuffer((ByteBuffer) v), r, d);
        default -> throw new IllegalStateException("not a leaf type: " + type);
      }
    }

    private static Binary string(Object v) {
      if (v instanceof Utf8 u) {
        return Binary.fromReusedByteArray(u.getBytes(), 0, u.getByteLength());
      }
      if (v instanceof String s) {
        // the same bytes as Binary.fromString, without the ByteBuffer it wraps them in (an object per string value
        // that a cold JVM's C1 code allocates every time: 45 of a cold upsert's 630 MB)
        return Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
      }
      if (v instanceof CharSequence cs) {
        return Binary.fromCharSequence(cs);
      }
      return Binary.fromString(v.toString());
    }

    @Override
    void writeNulls(int r, int d) {
      writer.writeNull(r, d);
    }
  }
}
