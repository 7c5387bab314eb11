package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice report} without a browser: its options' errors and the embedding of its data in the page. */
class ReportCliTest {
  @TempDir
  Path dir;

  private String table() {
    CliTest.Run r = CliTest.run("create", dir.resolve("t").toString(), "--type", "mor", "--record-key", "id",
        "--precombine", "ts", "--columns", "id string, ts long");
    assertEquals(0, r.exit(), r.err());
    return dir.resolve("t").toString();
  }

  @Test
  void aMissingFolderIsBadInputNamingTheFile() {
    String table = table();
    Path html = dir.resolve("no-such-folder").resolve("r.html");
    CliTest.Run r = CliTest.run("report", table, "--html", html.toString());
    assertEquals(3, r.exit(), r.err());
    assertTrue(r.err().contains("--html " + html) && r.err().contains("its folder does not exist"), r.err());
    CliTest.Run folder = CliTest.run("report", table, "--html", dir.toString());
    assertEquals(3, folder.exit(), folder.err());
    assertTrue(folder.err().contains("it is a folder"), folder.err());
    assertEquals(2, CliTest.run("report", table).exit(), "--html is required");
  }

  @Test
  void anEmptyTableGivesAPageWithItsFiguresEmbedded() throws IOException {
    String table = table();
    Path html = dir.resolve("r.html");
    CliTest.Run r = CliTest.run("report", table, "--html", html.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("0 instants, 0 file groups, 0 warnings"), r.out());
    JsonNode data = embedded(Files.readString(html));
    assertEquals(ReportCommand.FORMAT, data.get("format").asInt());
    assertEquals("MERGE_ON_READ", data.get("tableType").asText());
    CliTest.Run stats = CliTest.run("stats", table, "--json");
    assertEquals(new ObjectMapper().readTree(stats.out()), data.get("stats"));
  }

  @Test
  void dataThatLooksLikeMarkupStaysData() throws IOException {
    ObjectNode data = Json.object();
    String hostile = "</script><script>alert(1)</script> & <!-- \u2028 @SLUICE_REPORT_TITLE@ /*@SLUICE_REPORT_DATA@*/";
    data.put("table", hostile);
    data.put("other", hostile);
    String page = ReportPage.html(data);
    // the page's own scripts only: the data cannot close its script element or open another
    assertEquals(3, count(page, "</script>"), page);
    assertFalse(page.contains("<script>alert"), page);
    assertTrue(page.contains("<title>Sluice report: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp;"), page);
    assertEquals(hostile, embedded(page).get("other").asText());
  }

  private static JsonNode embedded(String page) throws IOException {
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"sluice-report-data\">(.*?)</script>",
        Pattern.DOTALL).matcher(page);
    assertTrue(m.find());
    return new ObjectMapper().readTree(m.group(1));
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
