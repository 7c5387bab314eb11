package dev.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.SluiceException;
import dev.sluice.tools.health.Warning;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The {@code --json} output of the listing commands: one pretty-printed JSON document per command. Records become
 * objects whose fields are the record components (absent optionals are {@code null}), so field names are the
 * documented names of the core's value types.
 */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {
  }

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static ArrayNode array() {
    return NODES.arrayNode();
  }

  /** A JSON tree of a record, collection, map, optional, enum, number, boolean or string. */
  static JsonNode tree(Object v) {
    if (v == null) {
      return NODES.nullNode();
    }
    if (v instanceof JsonNode n) {
      return n;
    }
    if (v instanceof Optional<?> o) {
      return o.isPresent() ? tree(o.get()) : NODES.nullNode();
    }
    if (v instanceof OptionalLong o) {
      return o.isPresent() ? NODES.numberNode(o.getAsLong()) : NODES.nullNode();
    }
    if (v instanceof OptionalInt o) {
      return o.isPresent() ? NODES.numberNode(o.getAsInt()) : NODES.nullNode();
    }
    if (v instanceof OptionalDouble o) {
      return o.isPresent() ? number(o.getAsDouble()) : NODES.nullNode();
    }
    if (v instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return NODES.numberNode(((Number) v).longValue());
    }
    if (v instanceof Double || v instanceof Float) {
      return number(((Number) v).doubleValue());
    }
    if (v instanceof BigDecimal d) {
      return NODES.numberNode(d);
    }
    if (v instanceof BigInteger i) {
      return NODES.numberNode(i);
    }
    if (v instanceof Enum<?> e) {
      return NODES.textNode(e.name());
    }
    if (v instanceof Map<?, ?> m) {
      ObjectNode o = object();
      m.forEach((k, x) -> o.set(String.valueOf(k), tree(x)));
      return o;
    }
    if (v instanceof Iterable<?> it) {
      ArrayNode a = array();
      it.forEach(x -> a.add(tree(x)));
      return a;
    }
    if (v instanceof Record r) {
      ObjectNode o = object();
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        try {
          o.set(c.getName(), tree(c.getAccessor().invoke(r)));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw SluiceException.internal("cannot read " + c.getName() + " of " + r.getClass().getSimpleName(), e);
        }
      }
      return o;
    }
    return NODES.textNode(v.toString());
  }

  private static JsonNode number(double d) {
    return Double.isFinite(d) ? NODES.numberNode(d) : NODES.nullNode();
  }

  /** The warnings as an array of {code, message, numbers}. */
  static ArrayNode warnings(List<Warning> warnings) {
    return (ArrayNode) tree(warnings);
  }

  /** Prints one document. */
  static void print(PrintWriter out, JsonNode doc) {
    try {
      out.println(MAPPER.writeValueAsString(doc));
    } catch (JsonProcessingException e) {
      throw SluiceException.internal("cannot write JSON", e);
    }
    out.flush();
  }
}
