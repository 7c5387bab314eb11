package dev.sluice.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a query needs from the tables, read from DuckDB's own parse tree ({@code json_serialize_sql}), never from a
 * parser of ours: the relations it names, every column name it mentions anywhere (a superset of the columns it uses:
 * a name that is only an alias or a struct field just costs a column read), whether it has a {@code *}, and the
 * simple conditions of a single-table query's {@code WHERE}: ANDed {@code column <op> constant}, {@code column IN
 * (constants)}, {@code column LIKE 'prefix%'}, and {@code OR}s of these.
 *
 * <p>Pushing is always safe because DuckDB still evaluates the whole query on the rows it gets: the columns only
 * narrow what the scan reads, and the conditions only let the scan skip partitions, files and rows that the
 * {@code WHERE} would drop anyway. A statement DuckDB cannot serialize (anything but a query: {@code DESCRIBE},
 * {@code SHOW}, {@code COPY}...) or a parse error plans "every column of every view named in the text".
 *
 * @param parsed whether DuckDB's parse tree was read (else the plan is the text fallback)
 * @param relations lower-cased relation names in the query, with how often each is named
 * @param columns lower-cased column names mentioned
 * @param star whether the query has a {@code *} or {@code COLUMNS(...)} (then every column is needed)
 * @param conditions pushable conditions; only for a query over one relation
 */
record QueryPlan(boolean parsed, Map<String, Integer> relations, Set<String> columns, boolean star,
    List<Condition> conditions) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> OPERATORS = Set.of("COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN",
      "COMPARE_GREATERTHAN", "COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO");

  /**
   * One pushable conjunct of the {@code WHERE}: a comparison, an {@code IN} list, a prefix {@code LIKE}, or an
   * {@code OR} of such conditions.
   */
  sealed interface Condition permits Compare, InList, Prefix, AnyOf {
  }

  /**
   * A constant as DuckDB serialized it.
   *
   * @param typeId DuckDB's type id (INTEGER, BIGINT, DECIMAL, DOUBLE, VARCHAR, BOOLEAN...)
   * @param value the value (for DECIMAL the unscaled integer)
   * @param scale the scale (DECIMAL only)
   */
  record Constant(String typeId, JsonNode value, int scale) {
  }

  /**
   * {@code column op constant}, the operator one of DuckDB's {@code COMPARE_*} names, read as if the column were on
   * the left.
   *
   * @param column lower-cased column name
   * @param operator DuckDB's comparison name
   * @param constant the constant
   */
  record Compare(String column, String operator, Constant constant) implements Condition {
  }

  /**
   * {@code column IN (constant, ...)}.
   *
   * @param column lower-cased column name
   * @param constants the list, none null
   */
  record InList(String column, List<Constant> constants) implements Condition {
  }

  /**
   * {@code column LIKE 'prefix%'}: case-sensitive, the prefix without wildcards.
   *
   * @param column lower-cased column name
   * @param prefix the text every matching value starts with (not empty)
   */
  record Prefix(String column, String prefix) implements Condition {
  }

  /**
   * {@code a OR b OR ...}: every alternative pushable, else the whole OR is left to DuckDB.
   *
   * @param alternatives at least two
   */
  record AnyOf(List<Condition> alternatives) implements Condition {
  }

  /** Plans {@code serialized}, the output of {@code json_serialize_sql(query)}; {@code query} for the fallback. */
  static QueryPlan of(String serialized, String query, Set<String> viewNames) {
    JsonNode root;
    try {
      root = JSON.readTree(serialized);
    } catch (IOException e) {
      return fallback(query, viewNames);
    }
    if (root.path("error").asBoolean(true) || root.path("statements").size() != 1) {
      return fallback(query, viewNames);
    }
    Map<String, Integer> relations = new LinkedHashMap<>();
    Set<String> columns = new HashSet<>();
    boolean[] star = {false};
    walk(root, relations, columns, star);
    return new QueryPlan(true, relations, columns, star[0], conditions(root.path("statements").get(0).path("node"),
        relations));
  }

  /** Every view named in the text as a word, with every column: for statements DuckDB does not serialize. */
  static QueryPlan fallback(String query, Set<String> viewNames) {
    Map<String, Integer> relations = new LinkedHashMap<>();
    for (String v : viewNames) {
      if (Pattern.compile("(?i)(?<![\\w$])" + Pattern.quote(v) + "(?![\\w$])").matcher(query).find()) {
        relations.put(v, 1);
      }
    }
    return new QueryPlan(false, relations, Set.of(), true, List.of());
  }

  private static void walk(JsonNode n, Map<String, Integer> relations, Set<String> columns, boolean[] star) {
    if (n.isObject()) {
      String cls = n.path("class").asText("");
      if (cls.equals("COLUMN_REF")) {
        n.path("column_names").forEach(c -> columns.add(lower(c.asText())));
      } else if (cls.equals("STAR")) {
        star[0] = true;
      }
      if (n.path("type").asText("").equals("BASE_TABLE") && n.has("table_name")) {
        relations.merge(lower(n.path("table_name").asText()), 1, Integer::sum);
      }
      n.fields().forEachRemaining(e -> walk(e.getValue(), relations, columns, star));
    } else if (n.isArray()) {
      n.forEach(c -> walk(c, relations, columns, star));
    }
  }

  /** The ANDed simple comparisons of a plain SELECT over one relation (no CTE, join, subquery or set operation). */
  private static List<Condition> conditions(JsonNode node, Map<String, Integer> relations) {
    JsonNode from = node.path("from_table");
    boolean single = node.path("type").asText("").equals("SELECT_NODE") && from.path("type").asText("").equals("BASE_TABLE")
        && relations.size() == 1 && relations.values().iterator().next() == 1
        && node.path("cte_map").path("map").size() == 0;
    JsonNode where = node.path("where_clause");
    if (!single || where.isMissingNode() || where.isNull()) {
      return List.of();
    }
    Set<String> qualifiers = Set.of(lower(from.path("table_name").asText()), lower(from.path("alias").asText()));
    List<JsonNode> conjuncts = new ArrayList<>();
    flatten(where, conjuncts);
    List<Condition> out = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      condition(c, qualifiers).ifPresent(out::add);
    }
    return out;
  }

  private static void flatten(JsonNode e, List<JsonNode> out) {
    if (e.path("type").asText("").equals("CONJUNCTION_AND")) {
      e.path("children").forEach(c -> flatten(c, out));
    } else {
      out.add(e);
    }
  }

  private static Optional<Condition> condition(JsonNode e, Set<String> qualifiers) {
    String cls = e.path("class").asText("");
    String type = e.path("type").asText("");
    if (cls.equals("CONJUNCTION") && type.equals("CONJUNCTION_OR")) {
      List<Condition> alternatives = new ArrayList<>();
      List<JsonNode> flat = new ArrayList<>();
      flattenOr(e, flat);
      for (JsonNode alternative : flat) {
        Optional<Condition> c = alternative.path("type").asText("").equals("CONJUNCTION_AND") ? Optional.empty()
            : condition(alternative, qualifiers);
        if (c.isEmpty()) {
          // one alternative the scan cannot test could match any row: the OR as a whole narrows nothing
          return Optional.empty();
        }
        alternatives.add(c.get());
      }
      return Optional.of(new AnyOf(List.copyOf(alternatives)));
    }
    if (cls.equals("OPERATOR") && type.equals("COMPARE_IN")) {
      return inList(e.path("children"), qualifiers);
    }
    if (cls.equals("FUNCTION") && e.path("function_name").asText("").equals("~~")
        && e.path("children").size() == 2) {
      return prefix(e.path("children"), qualifiers);
    }
    if (!cls.equals("COMPARISON") || !OPERATORS.contains(type)) {
      return Optional.empty();
    }
    JsonNode left = e.path("left");
    JsonNode right = e.path("right");
    if (isConstant(left) && isColumn(right, qualifiers)) {
      return Optional.of(new Compare(columnName(right), flip(type), constant(left)));
    }
    if (isColumn(left, qualifiers) && isConstant(right)) {
      return Optional.of(new Compare(columnName(left), type, constant(right)));
    }
    return Optional.empty();
  }

  private static void flattenOr(JsonNode e, List<JsonNode> out) {
    if (e.path("type").asText("").equals("CONJUNCTION_OR")) {
      e.path("children").forEach(c -> flattenOr(c, out));
    } else {
      out.add(e);
    }
  }

  /** {@code column IN (constants)}: the first child the column, the others non-null constants. */
  private static Optional<Condition> inList(JsonNode children, Set<String> qualifiers) {
    if (children.size() < 2 || !isColumn(children.get(0), qualifiers)) {
      return Optional.empty();
    }
    List<Constant> constants = new ArrayList<>();
    for (int i = 1; i < children.size(); i++) {
      if (!isConstant(children.get(i))) {
        return Optional.empty();
      }
      constants.add(constant(children.get(i)));
    }
    return Optional.of(new InList(columnName(children.get(0)), List.copyOf(constants)));
  }

  /**
   * {@code column LIKE 'text%'} with no other wildcard in the pattern (and no ESCAPE: DuckDB serializes that as
   * another function). Anything else, e.g. {@code '%text'} or {@code 'a_c%'}, is DuckDB's alone.
   */
  private static Optional<Condition> prefix(JsonNode children, Set<String> qualifiers) {
    JsonNode pattern = children.get(1);
    if (!isColumn(children.get(0), qualifiers) || !isConstant(pattern)
        || !pattern.path("value").path("type").path("id").asText("").equals("VARCHAR")) {
      return Optional.empty();
    }
    String text = pattern.path("value").path("value").asText();
    if (text.length() < 2 || !text.endsWith("%")) {
      return Optional.empty();
    }
    String prefix = text.substring(0, text.length() - 1);
    if (prefix.indexOf('%') >= 0 || prefix.indexOf('_') >= 0 || prefix.indexOf('\\') >= 0) {
      return Optional.empty();
    }
    return Optional.of(new Prefix(columnName(children.get(0)), prefix));
  }

  private static String columnName(JsonNode column) {
    JsonNode names = column.path("column_names");
    return lower(names.get(names.size() - 1).asText());
  }

  private static Constant constant(JsonNode constant) {
    JsonNode value = constant.path("value");
    JsonNode type = value.path("type");
    return new Constant(type.path("id").asText(""), value.path("value"), type.path("type_info").path("scale").asInt(0));
  }

  private static boolean isColumn(JsonNode n, Set<String> qualifiers) {
    JsonNode names = n.path("column_names");
    return n.path("class").asText("").equals("COLUMN_REF")
        && (names.size() == 1 || names.size() == 2 && qualifiers.contains(lower(names.get(0).asText())));
  }

  private static boolean isConstant(JsonNode n) {
    return n.path("class").asText("").equals("CONSTANT") && !n.path("value").path("is_null").asBoolean(true);
  }

  private static String flip(String op) {
    return switch (op) {
      case "COMPARE_LESSTHAN" -> "COMPARE_GREATERTHAN";
      case "COMPARE_GREATERTHAN" -> "COMPARE_LESSTHAN";
      case "COMPARE_LESSTHANOREQUALTO" -> "COMPARE_GREATERTHANOREQUALTO";
      case "COMPARE_GREATERTHANOREQUALTO" -> "COMPARE_LESSTHANOREQUALTO";
      default -> op;
    };
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
