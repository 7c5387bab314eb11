package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableInspection;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every hudi-cli view shares ({@code --json}, {@code --limit}, {@code --sort}, {@code --desc}) and what
 * they do to the view's rows. A view's rows are JSON objects whose field names are the column names the text shows,
 * so the field a user sorts by is the one they see.
 */
final class ViewOptions {
  @Option(names = "--json", description = "Print one JSON document (field names as the text columns; docs/cli.md).")
  boolean json;

  @Option(names = "--limit", paramLabel = "N", description = "Show at most N rows (after sorting); totals count all rows.")
  Integer limit;

  @Option(names = "--sort", paramLabel = "FIELD", description = "Sort the rows by this column (numbers by value, "
      + "text in order, empty last).")
  String sort;

  @Option(names = "--desc", description = "Sort in descending order.")
  boolean desc;

  /**
   * The rows sorted and cut as the options say. {@code fields} are the columns a row may be sorted by; an unknown
   * one, or a negative limit, is bad input (exit 3) naming the fields there are.
   */
  List<ObjectNode> apply(List<ObjectNode> rows, List<String> fields) {
    if (limit != null && limit < 0) {
      throw SluiceException.badInput("the command line", "--limit", "it is " + limit, "0 or more rows");
    }
    List<ObjectNode> out = new ArrayList<>(rows);
    if (sort != null) {
      if (!fields.contains(sort)) {
        throw SluiceException.badInput("the command line", "--sort", "this view has no column '" + sort + "'",
            "one of " + String.join(", ", fields));
      }
      int sign = desc ? -1 : 1;
      out.sort((a, b) -> compare(value(a, sort), value(b, sort), sign));
    } else if (desc) {
      java.util.Collections.reverse(out);
    }
    if (limit != null && out.size() > limit) {
      return new ArrayList<>(out.subList(0, limit));
    }
    return out;
  }

  /**
   * Prints a view whose text ends in a totals line: with {@code --json} one document ({@code doc}'s fields first,
   * then {@code rowCount} of all rows, the {@code rows} the options keep and the {@code totals}), else the text table
   * of the kept rows and the totals as its last line. Totals always count every row.
   */
  void printWithTotals(PrintWriter out, ObjectNode doc, List<ObjectNode> rows, List<String> columns, ObjectNode totals) {
    List<ObjectNode> shown = apply(rows, columns);
    if (json) {
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.set("totals", totals);
      Json.print(out, doc);
      return;
    }
    List<ObjectNode> withTotal = new ArrayList<>(shown);
    withTotal.add(totals);
    TextTable.print(out, columns, withTotal);
    out.flush();
  }

  /**
   * Prints the list view of one kind of completed action ({@code noun}: "cleans", "rollbacks"), one row each with its
   * {@code totalFilesDeleted}: with {@code --json} one document (the table, {@code rowCount}, the kept {@code rows},
   * {@code totals} of the count and the files deleted), else the text table and a totals line. Totals count every row.
   */
  void printActions(PrintWriter out, Table t, List<ObjectNode> rows, List<String> columns, String noun) {
    List<ObjectNode> shown = apply(rows, columns);
    long deleted = rows.stream().mapToLong(r -> r.get("totalFilesDeleted").asLong()).sum();
    if (json) {
      ObjectNode doc = header(t);
      doc.put("rowCount", rows.size());
      doc.set("rows", Json.tree(shown));
      doc.putObject("totals").put(noun, rows.size()).put("totalFilesDeleted", deleted);
      Json.print(out, doc);
      return;
    }
    TextTable.print(out, columns, shown);
    out.printf("total: %d %s on the active timeline, %,d files deleted%s%n", rows.size(), noun, deleted,
        shown.size() < rows.size() ? " (" + shown.size() + " shown)" : "");
    out.flush();
  }

  /** A JSON view's first fields: the table's location and version. */
  static ObjectNode header(Table t) {
    ObjectNode doc = Json.object();
    doc.put("table", t.location());
    doc.put("tableVersion", t.tableVersion());
    return doc;
  }

  /**
   * The completed instant {@code time} of the active timeline, or bad input on parameter {@code param} naming the
   * table and {@code expected} (what the parameter should name).
   */
  static InstantInfo completedInstant(TableInspection store, String time, String param,
      String expected) {
    for (InstantInfo i : store.timeline()) {
      if (i.time().equals(time) && i.isCompleted()) {
        return i;
      }
    }
    throw SluiceException.badInput("the command line", param, "the active timeline of "
        + store.location() + " has no completed instant " + time, expected);
  }

  /** The field of a row; a view's row may keep further columns in a nested {@code record} (merged log records). */
  static JsonNode value(ObjectNode row, String field) {
    JsonNode v = row.get(field);
    if (v == null && row.get("record") instanceof ObjectNode nested) {
      v = nested.get(field);
    }
    return v;
  }

  /** Numbers by value, else text; absent and null values last (whatever the direction, as a reader expects). */
  private static int compare(JsonNode a, JsonNode b, int sign) {
    boolean aMissing = a == null || a.isNull();
    boolean bMissing = b == null || b.isNull();
    if (aMissing || bMissing) {
      return Boolean.compare(aMissing, bMissing);
    }
    if (a.isNumber() && b.isNumber()) {
      return sign * a.decimalValue().compareTo(b.decimalValue());
    }
    return sign * (a.isValueNode() ? a.asText() : a.toString()).compareTo(b.isValueNode() ? b.asText() : b.toString());
  }
}
