package dev.sluice.internal.basefile;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Builds Avro records straight from Parquet's column readers, level by level, instead of through Parquet's record
 * reader state machine and parquet-avro's converter tree: the same records (generic records, {@link Utf8}
 * strings, {@code GenericData.Array}, {@code HashMap} maps, {@code ByteBuffer} bytes, {@code uuid} strings as
 * {@code String}, values shared per dictionary entry as parquet-avro shares them). {@link #compile} declines what
 * it does not reproduce exactly (non-null unions, three-level lists, type promotions, strings read as
 * {@code java.lang.String}, logical types the default model converts); the reader then uses parquet-avro.
 * Only unfiltered reads use it: a record filter needs Parquet's record reader.
 */
final class RowAssembler {
  private final Schema schema;
  private final MessageType requested;
  private final Group root;
  private final List<Leaf> leaves;

  private RowAssembler(Schema schema, MessageType requested, Group root, List<Leaf> leaves) {
    this.schema = schema;
    this.requested = requested;
    this.root = root;
    this.leaves = leaves;
  }

  /** The assembler for records of {@code avro} read from columns {@code requested}, if it reads them exactly. */
  static Optional<RowAssembler> compile(Schema avro, MessageType requested) {
    return compile(avro, requested, Optional.empty());
  }

  /**
   * As {@link #compile(Schema, MessageType)}; with {@code visible} (whose fields are {@code avro}'s first ones) the
   * rows are {@link WideRow}s showing it.
   */
  static Optional<RowAssembler> compile(Schema avro, MessageType requested, Optional<Schema> visible) {
    if (avro.getType() != Schema.Type.RECORD) {
      return Optional.empty();
    }
    List<Leaf> leaves = new ArrayList<>();
    Group root = group(avro, requested, requested, new ArrayList<>(), 0, 0, leaves);
    if (root == null || leaves.size() != requested.getColumns().size()) {
      return Optional.empty();
    }
    if (visible.isPresent()) {
      root = root.showing(visible.get());
    }
    return Optional.of(new RowAssembler(avro, requested, root, List.copyOf(leaves)));
  }

  /** Rows of every row group of {@code reader} (already restricted to {@link #requested}). */
  CloseableIterator<GenericRecord> read(ParquetFileReader reader, String createdBy,
      Function<GenericRecord, GenericRecord> finish, Function<Throwable, RuntimeException> errors) {
    reader.setRequestedSchema(requested);
    return new Rows(reader, createdBy, finish, errors);
  }

  Schema schema() {
    return schema;
  }

  /**
   * The first row of {@code pages}, a row group filtered to the rows wanted ({@link PageReadStore#getRowIndexes}),
   * read with Parquet's column readers, which skip to those rows; this assembler is then bound to {@code pages}.
   */
  GenericRecord readOne(PageReadStore pages, String createdBy) {
    ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, new Converters(requested, List.of()), requested,
        createdBy);
    for (Leaf l : leaves) {
      l.forgetDictionary();
      l.bind(store.getColumnReader(l.column));
    }
    return (GenericRecord) root.read();
  }

  // ---- compilation ----

  private static Group group(Schema avro, GroupType parquet, MessageType message, List<String> path, int def,
      int rep, List<Leaf> leaves) {
    List<Field> fields = new ArrayList<>();
    int first = leaves.size();
    for (Schema.Field f : avro.getFields()) {
      if (!parquet.containsField(f.name())) {
        return null;
      }
      Type type = parquet.getType(f.name());
      Schema value = OptionalSchemas.nonNull(f.schema());
      boolean optional = type.isRepetition(Type.Repetition.OPTIONAL);
      if (value == null || optional != (value != f.schema()) || type.isRepetition(Type.Repetition.REPEATED)) {
        return null;
      }
      List<String> p = new ArrayList<>(path);
      p.add(type.getName());
      Node n = node(value, type, message, p, optional ? def + 1 : def, rep, leaves);
      if (n == null) {
        return null;
      }
      fields.add(new Field(f.pos(), n));
    }
    if (fields.isEmpty() || fields.size() != parquet.getFieldCount()) {
      return null;
    }
    return new Group(avro, fields.toArray(new Field[0]), def, leaves.get(first), leaves.subList(first, leaves.size()));
  }

  private static Node node(Schema avro, Type type, MessageType message, List<String> path, int def, int rep,
      List<Leaf> leaves) {
    switch (avro.getType()) {
      case RECORD:
        return type.isPrimitive() ? null : group(avro, type.asGroupType(), message, path, def, rep, leaves);
      case ARRAY: {
        if (type.isPrimitive() || type.asGroupType().getFieldCount() != 1) {
          return null;
        }
        Type element = type.asGroupType().getType(0);
        Schema elementSchema = avro.getElementType();
        // two-level lists only: the repeated field is the element (parquet-avro's isElementType)
        if (!element.isRepetition(Type.Repetition.REPEATED) || OptionalSchemas.nonNull(elementSchema) != elementSchema
            || !element.getName().equals("array") || (element.isPrimitive() == (elementSchema.getType()
            == Schema.Type.RECORD))) {
          return null;
        }
        List<String> p = new ArrayList<>(path);
        p.add(element.getName());
        int first = leaves.size();
        Node e = node(elementSchema, element, message, p, def + 1, rep + 1, leaves);
        return e == null ? null : new ListNode(avro, e, def, rep + 1, leaves.get(first),
            leaves.subList(first, leaves.size()));
      }
      case MAP: {
        if (type.isPrimitive() || type.asGroupType().getFieldCount() != 1 || isJavaString(avro)) {
          return null;
        }
        Type kv = type.asGroupType().getType(0);
        if (kv.isPrimitive() || !kv.isRepetition(Type.Repetition.REPEATED) || kv.asGroupType().getFieldCount() != 2) {
          return null;
        }
        Type keyType = kv.asGroupType().getType(0);
        Type valueType = kv.asGroupType().getType(1);
        Schema value = OptionalSchemas.nonNull(avro.getValueType());
        boolean optional = valueType.isRepetition(Type.Repetition.OPTIONAL);
        if (!keyType.isRepetition(Type.Repetition.REQUIRED) || value == null
            || optional != (value != avro.getValueType())) {
          return null;
        }
        int first = leaves.size();
        List<String> kp = new ArrayList<>(path);
        kp.add(kv.getName());
        kp.add(keyType.getName());
        Node key = leaf(Schema.create(Schema.Type.STRING), keyType, message, kp, def + 1, rep + 1, leaves);
        List<String> vp = new ArrayList<>(path);
        vp.add(kv.getName());
        vp.add(valueType.getName());
        Node v = key == null ? null
            : node(value, valueType, message, vp, optional ? def + 2 : def + 1, rep + 1, leaves);
        return v == null ? null : new MapNode((Leaf) key, v, def, rep + 1, leaves.subList(first, leaves.size()));
      }
      case UNION:
      case NULL:
        return null;
      default:
        return leaf(avro, type, message, path, def, rep, leaves);
    }
  }

  private static Node leaf(Schema avro, Type type, MessageType message, List<String> path, int def, int rep,
      List<Leaf> leaves) {
    if (!type.isPrimitive() || isJavaString(avro)) {
      return null;
    }
    PrimitiveTypeName physical = type.asPrimitiveType().getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    boolean ok = switch (avro.getType()) {
      case BOOLEAN -> physical == PrimitiveTypeName.BOOLEAN;
      case INT -> physical == PrimitiveTypeName.INT32;
      case LONG -> physical == PrimitiveTypeName.INT64;
      case FLOAT -> physical == PrimitiveTypeName.FLOAT;
      case DOUBLE -> physical == PrimitiveTypeName.DOUBLE;
      case STRING, ENUM -> physical == PrimitiveTypeName.BINARY
          && !(annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation);
      case BYTES -> physical == PrimitiveTypeName.BINARY;
      case FIXED -> physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
      default -> false;
    };
    if (!ok) {
      return null;
    }
    ColumnDescriptor column;
    try {
      column = message.getColumnDescription(path.toArray(new String[0]));
    } catch (RuntimeException e) {
      return null;
    }
    if (column.getMaxDefinitionLevel() != def || column.getMaxRepetitionLevel() != rep) {
      return null;
    }
    if (avro.getLogicalType() != null && GenericData.get().getConversionFor(avro.getLogicalType()) != null) {
      return null; // parquet-avro would convert with the model's conversion; Sluice reads raw values
    }
    Leaf l = new Leaf(avro, column, def);
    leaves.add(l);
    return l;
  }

  /** Strings parquet-avro reads as {@code java.lang.String} ({@code avro.java.string}); left to it. */
  private static boolean isJavaString(Schema s) {
    return s.getProp(GenericData.STRING_PROP) != null;
  }

  // ---- the compiled tree ----

  /** A part of the schema: reads its value of the current row from its columns. */
  private abstract static class Node {
    /** The value at the columns' current position (consuming its entries), or null when absent. */
    abstract Object read();

    /** Consumes the one entry each column under this node holds for an absent or empty value. */
    abstract void skip();
  }

  private record Field(int pos, Node node) {
  }

  /** Consumes one entry in each leaf. */
  private static void skipAll(List<Leaf> leaves) {
    for (Leaf l : leaves) {
      l.skip();
    }
  }

  private static final class Group extends Node {
    private final Schema schema;
    private final Field[] fields;
    private final int def;
    private final Leaf first;
    private final List<Leaf> leaves;
    /** The schema rows show if they are {@link WideRow}s (the root of a wide read), else null. */
    private final Schema visible;

    Group(Schema schema, Field[] fields, int def, Leaf first, List<Leaf> leaves) {
      this(schema, fields, def, first, leaves, null);
    }

    private Group(Schema schema, Field[] fields, int def, Leaf first, List<Leaf> leaves, Schema visible) {
      this.schema = schema;
      this.fields = fields;
      this.def = def;
      this.first = first;
      this.leaves = List.copyOf(leaves);
      this.visible = visible;
    }

    /**
     * This group making rows that show {@code shown} (whose fields are this group's first ones): {@link WideRow}s
     * where it reads more fields than {@code shown} has, else plain records of {@code shown} (a merge whose key and
     * ordering fields are output columns needs no extras: no second array per row).
     */
    Group showing(Schema shown) {
      return shown.getFields().size() == fields.length ? new Group(shown, fields, def, first, leaves, null)
          : new Group(schema, fields, def, first, leaves, shown);
    }

    @Override
    Object read() {
      if (first.level() < def) {
        skip();
        return null;
      }
      GenericData.Record r = visible == null ? new GenericData.Record(schema) : new WideRow(visible, fields.length);
      for (Field f : fields) {
        r.put(f.pos(), f.node().read());
      }
      return r;
    }

    @Override
    void skip() {
      skipAll(leaves);
    }
  }

  private static final class ListNode extends Node {
    private final Schema schema;
    private final Node element;
    private final int def;
    private final int repeat;
    private final Leaf first;
    private final List<Leaf> leaves;

    /** The element count of the last non-empty list read: the next one's initial capacity. */
    private int lastSize;

    ListNode(Schema schema, Node element, int def, int repeat, Leaf first, List<Leaf> leaves) {
      this.schema = schema;
      this.element = element;
      this.def = def;
      this.repeat = repeat;
      this.first = first;
      this.leaves = List.copyOf(leaves);
    }

    @Override
    Object read() {
      int level = first.level();
      if (level < def) {
        skip();
        return null;
      }
      if (level == def) {
        skip();
        return new GenericData.Array<>(0, schema);
      }
      // room for as many elements as the last list had (lists of a column tend to be alike): an array grown from
      // empty is copied at its 1st, 2nd, 3rd, 5th... element
      GenericData.Array<Object> out = new GenericData.Array<>(lastSize, schema);
      do {
        out.add(element.read());
      } while (first.hasMore() && first.repetition() == repeat);
      lastSize = out.size();
      return out;
    }

    @Override
    void skip() {
      skipAll(leaves);
    }
  }

  private static final class MapNode extends Node {
    private final Leaf key;
    private final Node value;
    private final int def;
    private final int repeat;
    private final List<Leaf> leaves;

    MapNode(Leaf key, Node value, int def, int repeat, List<Leaf> leaves) {
      this.key = key;
      this.value = value;
      this.def = def;
      this.repeat = repeat;
      this.leaves = List.copyOf(leaves);
    }

    @Override
    Object read() {
      int level = key.level();
      if (level < def) {
        skip();
        return null;
      }
      Map<Object, Object> out = new HashMap<>();
      if (level == def) {
        skip();
        return out;
      }
      do {
        Object k = key.read();
        out.put(k, value.read());
      } while (key.hasMore() && key.repetition() == repeat);
      return out;
    }

    @Override
    void skip() {
      skipAll(leaves);
    }
  }

  /** One column: its reader and a converter that keeps the last value (shared per dictionary entry). */
  private static final class Leaf extends Node {
    private final Schema schema;
    private final Schema.Type type;
    /** A {@code uuid} string: parquet-avro reads it as a {@code java.lang.String}. */
    private final boolean uuid;
    private final ColumnDescriptor column;
    private final int def;
    private final Holder holder = new Holder();
    private final PrimitiveTypeName physical;
    private ColumnReader reader;
    /** The reader when it is Sluice's own, else null (Parquet's reader, through {@link #holder}). */
    private CopyColumnReader own;
    private long remaining;

    Leaf(Schema schema, ColumnDescriptor column, int def) {
      this.schema = schema;
      this.type = schema.getType();
      this.uuid = type == Schema.Type.STRING && schema.getLogicalType() != null
          && schema.getLogicalType().getName().equals(LogicalTypes.uuid().getName());
      this.column = column;
      this.physical = column.getPrimitiveType().getPrimitiveTypeName();
      this.def = def;
    }

    /** Before the row group's reader is made: the reader hands its dictionary over while it is built. */
    void forgetDictionary() {
      holder.dictionary = null;
      holder.decoded = null;
    }

    void bind(ColumnReader r) {
      reader = r;
      remaining = r.getTotalValueCount();
      if (r instanceof CopyColumnReader c) {
        own = c;
        // the holder converts each dictionary entry once, as it does for Parquet's reader
        c.dictionary().ifPresent(holder::setDictionary);
      } else {
        own = null;
      }
    }

    int level() {
      return own != null ? own.getCurrentDefinitionLevel() : reader.getCurrentDefinitionLevel();
    }

    int repetition() {
      return own != null ? own.getCurrentRepetitionLevel() : reader.getCurrentRepetitionLevel();
    }

    boolean hasMore() {
      return remaining > 0;
    }

    @Override
    Object read() {
      // Sluice's own reader called as its class, not through the interface: a direct call a JIT can inline (C1, the
      // command-line query's only compiler on JDK 17, cannot inline an interface call with two implementations)
      CopyColumnReader c = own;
      Object v = null;
      if (c != null) {
        if (c.getCurrentDefinitionLevel() == def) {
          v = ownValue(c);
        }
        c.consume();
      } else {
        if (reader.getCurrentDefinitionLevel() == def) {
          reader.writeCurrentValueToConverter();
          v = holder.value;
        }
        reader.consume();
      }
      remaining--;
      return v;
    }

    @Override
    void skip() {
      reader.consume();
      remaining--;
    }

    /**
     * The current value from Sluice's own column reader: the same objects {@link Holder} gets from Parquet's
     * (boxed primitives, binaries converted once per dictionary entry), without the converter calls and Parquet's
     * stream-based plain decoding.
     */
    private Object ownValue(CopyColumnReader c) {
      return switch (physical) {
        case INT64 -> c.getLong();
        case DOUBLE -> c.getDouble();
        case INT32 -> c.getInteger();
        case FLOAT -> c.getFloat();
        case BOOLEAN -> c.getBoolean();
        default -> {
          int id = c.takeDictionaryId();
          if (id < 0) {
            if (type == Schema.Type.STRING && !uuid) {
              byte[] plain = c.takePlainBytes();
              if (plain != null) {
                yield new Utf8(plain);
              }
            }
            yield binary(c.getBinary());
          }
          holder.addValueFromDictionary(id);
          yield holder.value;
        }
      };
    }

    /** The Avro value of a binary the way parquet-avro's converters make it. */
    Object binary(Binary b) {
      return switch (type) {
        case STRING -> uuid ? b.toStringUsingUTF8() : new Utf8(b.getBytes());
        case ENUM -> new GenericData.EnumSymbol(schema, b.toStringUsingUTF8());
        case BYTES -> ByteBuffer.wrap(b.getBytes());
        case FIXED -> new GenericData.Fixed(schema, b.getBytes());
        default -> throw new IllegalStateException("binary value for a " + type + " column " + column);
      };
    }

    private final class Holder extends PrimitiveConverter {
      private Object value;
      private Dictionary dictionary;
      private Object[] decoded;

      @Override
      public boolean hasDictionarySupport() {
        return type == Schema.Type.STRING || type == Schema.Type.ENUM || type == Schema.Type.BYTES
            || type == Schema.Type.FIXED;
      }

      @Override
      public void setDictionary(Dictionary d) {
        dictionary = d;
        decoded = new Object[d.getMaxId() + 1];
      }

      @Override
      public void addValueFromDictionary(int id) {
        Object v = decoded[id];
        if (v == null) {
          v = binary(dictionary.decodeToBinary(id));
          decoded[id] = v;
        }
        value = v;
      }

      @Override
      public void addBinary(Binary b) {
        value = binary(b);
      }

      @Override
      public void addBoolean(boolean v) {
        value = v;
      }

      @Override
      public void addInt(int v) {
        value = v;
      }

      @Override
      public void addLong(long v) {
        value = v;
      }

      @Override
      public void addFloat(float v) {
        value = v;
      }

      @Override
      public void addDouble(double v) {
        value = v;
      }
    }
  }

  /** Mirrors the requested schema so Parquet finds each column's converter by path. */
  private final class Converters extends GroupConverter {
    private final Converter[] children;

    Converters(GroupType type, List<String> path) {
      children = new Converter[type.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type t = type.getType(i);
        List<String> p = new ArrayList<>(path);
        p.add(t.getName());
        children[i] = t.isPrimitive() ? leafAt(p).holder : new Converters(t.asGroupType(), p);
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return children[fieldIndex];
    }

    @Override
    public void start() {
    }

    @Override
    public void end() {
    }
  }

  private Leaf leafAt(List<String> path) {
    String[] p = path.toArray(new String[0]);
    for (Leaf l : leaves) {
      if (java.util.Arrays.equals(l.column.getPath(), p)) {
        return l;
      }
    }
    throw new IllegalStateException("no column " + path);
  }

  private final class Rows implements CloseableIterator<GenericRecord> {
    private final String createdBy;
    private final Function<GenericRecord, GenericRecord> finish;
    private final Function<Throwable, RuntimeException> errors;
    private final Converters converters = new Converters(requested, List.of());
    private final RowGroups groups;
    private final boolean[] ownReader;
    private long leftInGroup;
    private boolean done;

    Rows(ParquetFileReader reader, String createdBy, Function<GenericRecord, GenericRecord> finish,
        Function<Throwable, RuntimeException> errors) {
      this.groups = new RowGroups(reader, false);
      // columns whose every chunk Sluice's reader decodes (plain and dictionary pages); the rest go to Parquet's
      this.ownReader = new boolean[leaves.size()];
      for (int i = 0; i < ownReader.length; i++) {
        ownReader[i] = CopyColumnReader.readsAll(leaves.get(i).column, reader.getRowGroups());
      }
      this.createdBy = createdBy;
      this.finish = finish;
      this.errors = errors;
    }

    @Override
    public boolean hasNext() {
      if (done) {
        return false;
      }
      try {
        if (leftInGroup == 0 && !nextRowGroup()) {
          close();
          return false;
        }
        return true;
      } catch (IOException | RuntimeException e) {
        close();
        throw errors.apply(e);
      }
    }

    @Override
    public GenericRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      try {
        leftInGroup--;
        return finish.apply((GenericRecord) root.read());
      } catch (RuntimeException e) {
        close();
        throw errors.apply(e);
      }
    }

    private boolean nextRowGroup() throws IOException {
      Optional<PageReadStore> pages = groups.next();
      if (pages.isEmpty()) {
        return false;
      }
      leftInGroup = pages.get().getRowCount();
      ColumnReadStoreImpl store = null;
      for (int i = 0; i < leaves.size(); i++) {
        Leaf l = leaves.get(i);
        l.forgetDictionary();
        if (ownReader[i]) {
          l.bind(CopyColumnReader.open(l.column, pages.get().getPageReader(l.column)));
        } else {
          if (store == null) {
            store = new ColumnReadStoreImpl(pages.get(), converters, requested, createdBy);
          }
          l.bind(store.getColumnReader(l.column));
        }
      }
      return true;
    }


    @Override
    public void close() {
      if (done) {
        return;
      }
      done = true;
      groups.closeFile(errors);
    }
  }
}
