package dev.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.SluiceException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The HTML of {@code sluice report}: the page template (inline CSS and script, {@code report.html} next to this
 * class) with the report's JSON document embedded. The page loads nothing: its Content-Security-Policy allows no
 * network request, and its script draws every chart as SVG from the embedded document.
 */
final class ReportPage {
  private static final String TEMPLATE = "report.html";
  private static final String DATA = "/*@SLUICE_REPORT_DATA@*/";
  private static final String TITLE = "@SLUICE_REPORT_TITLE@";

  private ReportPage() {
  }

  /** The page of {@code data}. */
  static String html(ObjectNode data) {
    String template = template();
    String json;
    try {
      json = Json.MAPPER.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw SluiceException.internal("a report figure could not be written as JSON", e);
    }
    String title = "Sluice report: " + data.get("table").asText();
    // replace the title first: the data may contain the title's marker text, the template holds each marker once
    return template.replace(TITLE, escapeHtml(title)).replace(DATA, scriptSafe(json));
  }

  /**
   * JSON that cannot end the script element it sits in: {@code <}, {@code >} and {@code &} only occur inside JSON
   * strings, where their Unicode escapes mean the same characters ({@code </script>} in a table path stays data).
   */
  static String scriptSafe(String json) {
    return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
  }

  static String escapeHtml(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  private static String template() {
    try (InputStream in = ReportPage.class.getResourceAsStream(TEMPLATE)) {
      if (in == null) {
        throw SluiceException.internal("the report template " + TEMPLATE + " is missing from the CLI jar", null);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw SluiceException.internal("the report template " + TEMPLATE + " could not be read", e);
    }
  }
}
