package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice report} opened in a real headless Chromium: the page renders without script errors, and every figure
 * it shows, and the JSON it embeds, equal what {@code sluice stats --json} (and {@code timeline}, {@code stats wa},
 * {@code stats filesizes}) print for the same table, on a Copy-on-Write table with scattered upserts, a clean and a
 * rollback, and on a Merge-on-Read table with log files before and after a compaction and a pending compaction.
 * Screenshots go to {@code target/report-screenshots/}, and also to the folder {@code -Dsluice.report.screenshots}
 * names ({@code docs/images} for the committed ones, docs/report.md).
 */
class ReportBrowserTest {
  private static final int GROUPS = 6;
  private static final int PER_GROUP = 200;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] SIZING = {"--conf", "hoodie.copyonwrite.record.size.estimate=1000", "--conf",
      "hoodie.parquet.max.file.size=" + 1000 * PER_GROUP, "--conf", "hoodie.parquet.small.file.limit=0", "--conf",
      "hoodie.index.bloom.num_entries=1000"};
  private static final Pattern FIGURE = Pattern.compile(
      "<span class=\"num\" data-figure=\"([^\"]+)\" data-value=\"([^\"]*)\">([^<]*)</span>");
  private static final Pattern BYTES = Pattern.compile("(\\d+(?:\\.\\d)?) (B|KiB|MiB|GiB|TiB)");
  private static final Pattern DATA = Pattern.compile(
      "<script type=\"application/json\" id=\"sluice-report-data\">(.*?)</script>", Pattern.DOTALL);

  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private static String[] args(String[] head, String[]... rest) {
    List<String> all = new ArrayList<>(List.of(head));
    for (String[] r : rest) {
      all.addAll(List.of(r));
    }
    return all.toArray(String[]::new);
  }

  private static CliTest.Run ok(String... a) {
    CliTest.Run r = CliTest.run(a);
    assertEquals(0, r.exit(), r.err() + r.out());
    return r;
  }

  private static JsonNode json(CliTest.Run r) throws IOException {
    return JSON.readTree(r.out());
  }

  private Path jsonl(String name, List<Integer> ids, long ts) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i : ids) {
      sb.append(String.format("{\"id\": \"id-%06d\", \"ts\": %d, \"city\": \"%s\", \"fare\": %d.5}%n", i, ts,
          i % 2 == 0 ? "oslo" : "lima", i));
    }
    Path p = dir.resolve(name);
    Files.writeString(p, sb.toString());
    return p;
  }

  private void createAndLoad(String type) throws IOException {
    ok(args(new String[] {"create", table(), "--type", type, "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double"}, SIZING));
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < GROUPS * PER_GROUP; i++) {
      all.add(i);
    }
    ok(args(new String[] {"bulk-insert", table(), jsonl("all.jsonl", all, 1).toString()}, SIZING));
  }

  /** Two updates in each file group (an odd and an even id: both partitions): a scattered upsert. */
  private void scatteredUpsert(long ts) throws IOException {
    List<Integer> ids = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      ids.add(g * PER_GROUP + (int) ts);
      ids.add(g * PER_GROUP + (int) ts + 1);
    }
    ok(args(new String[] {"upsert", table(), jsonl("scattered-" + ts + ".jsonl", ids, ts).toString()}, SIZING));
  }

  @Test
  void copyOnWriteReportRendersTheFiguresOfStats() throws IOException, InterruptedException {
    HeadlessChromium chromium = HeadlessChromium.require(dir);
    createAndLoad("cow");
    scatteredUpsert(5);
    scatteredUpsert(6);
    ok("clean", table(), "--conf", "hoodie.cleaner.commits.retained=1");
    scatteredUpsert(7);
    JsonNode before = json(ok("timeline", table(), "--json")).get("instants");
    ok("rollback", table(), before.get(before.size() - 1).get("time").asText());
    String[] thresholds = {"--conf", "sluice.health.rewritten.file.groups.min=3", "--conf",
        "sluice.health.changed.records.per.file.group.max=10"};

    Page page = render(chromium, thresholds, "report-cow.png");

    List<String> codes = codes(page.stats);
    assertEquals(List.of("COW_UPSERTS_REWRITE_MANY_FILE_GROUPS"), codes);
    assertWarningIn(page.dom, "COW_UPSERTS_REWRITE_MANY_FILE_GROUPS", "write-amplification");
    Set<String> actions = chartActions(page.dom);
    assertTrue(actions.containsAll(Set.of("commit", "clean", "rollback")), actions.toString());
    // the scattered upserts rewrote every file group: their write amplification is what the chart draws
    JsonNode upsert = page.stats.get("commits").get(1);
    assertEquals("UPSERT", upsert.get("operation").asText());
    assertTrue(upsert.get("writeAmplification").asDouble() > 10, upsert.toString());
    assertEquals(upsert.get("writeAmplification").asDouble(),
        Double.parseDouble(page.figures.get("stats.commits.1.writeAmplification")), 0.0);
  }

  @Test
  void mergeOnReadReportRendersLogFilesCompactionAndItsWarnings() throws IOException, InterruptedException {
    HeadlessChromium chromium = HeadlessChromium.require(dir);
    createAndLoad("mor");
    scatteredUpsert(5);
    scatteredUpsert(6);
    ok(args(new String[] {"compact", table(), "--schedule", "--force"}, SIZING));
    ok(args(new String[] {"compact", table(), "--run"}, SIZING));
    scatteredUpsert(7);
    scatteredUpsert(8);
    ok(args(new String[] {"compact", table(), "--schedule", "--force"}, SIZING));
    String[] strict = {"--conf", "sluice.health.max.log.files=1", "--conf", "sluice.health.max.delta.commits=1"};

    Page page = render(chromium, strict, "report-mor.png");

    assertEquals(List.of("COMPACTION_BEHIND_LOG_FILES", "COMPACTION_BEHIND_DELTA_COMMITS"), codes(page.stats));
    assertWarningIn(page.dom, "COMPACTION_BEHIND_LOG_FILES", "heatmap");
    assertWarningIn(page.dom, "COMPACTION_BEHIND_DELTA_COMMITS", "heatmap");
    assertEquals(2, page.stats.get("deltaCommitsSinceLastCompaction").asInt());
    assertTrue(page.stats.get("lastCompaction").isTextual());
    assertEquals(1, page.stats.get("pendingCompactions").size());
    Set<String> actions = chartActions(page.dom);
    assertTrue(actions.containsAll(Set.of("deltacommit", "compaction")), actions.toString());
    // the heat map's default metric is the log bytes since the base file, and every slice under the pending
    // compaction is outlined
    int outlined = count(page.dom, "class=\"heat-cell pending\"");
    assertEquals(page.stats.get("pendingCompactions").get(0).get("fileGroups").size(), outlined);
    long logBytes = 0;
    for (JsonNode s : page.stats.get("slices")) {
      logBytes += s.get("logBytes").asLong();
    }
    assertTrue(logBytes > 0);
    assertEquals(logBytes, page.stats.get("readCost").get("logBytes").asLong());
    assertTrue(page.stats.get("readCost").get("readAmplification").asDouble() > 1.0);
    assertEquals(page.stats.get("readCost").get("readAmplification").asDouble(),
        Double.parseDouble(page.figures.get("stats.readCost.readAmplification")), 0.0);
  }

  @Test
  void aScriptErrorIsCaughtAndShownInThePage() throws IOException, InterruptedException {
    HeadlessChromium chromium = HeadlessChromium.require(dir);
    // a document without its stats: the page's script fails on it, which the rendered checks above must see
    ObjectNode broken = Json.object();
    broken.put("table", "/no/stats");
    Path html = dir.resolve("broken.html");
    Files.writeString(html, ReportPage.html(broken));
    String dom = chromium.dumpDom(html);
    assertTrue(dom.contains("<html lang=\"en\" data-report=\"error\">"), () -> head(dom));
    Matcher errors = Pattern.compile("<pre id=\"sluice-report-errors\">([^<]+)</pre>").matcher(dom);
    assertTrue(errors.find(), () -> head(dom));
    assertTrue(errors.group(1).contains("TypeError"), errors.group(1));
  }

  private record Page(JsonNode stats, String dom, Map<String, String> figures) {
  }

  /**
   * Writes the report, opens it in Chromium, and checks what both table types share: no script error, the embedded
   * JSON equals the commands' own output, every figure shown equals the figure of {@code stats --json}.
   */
  private Page render(HeadlessChromium chromium, String[] conf, String screenshot) throws IOException, InterruptedException {
    Path html = dir.resolve("report.html");
    CliTest.Run report = ok(args(new String[] {"report", table(), "--html", html.toString()}, conf));
    assertTrue(report.out().startsWith("wrote " + html), report.out());
    JsonNode stats = json(ok(args(new String[] {"stats", table(), "--json"}, conf)));
    JsonNode timeline = json(ok("timeline", table(), "--json"));
    JsonNode wa = json(ok("stats", "wa", table(), "--json"));
    JsonNode sizes = json(ok("stats", "filesizes", table(), "--json"));

    String source = Files.readString(html);
    assertSelfContained(source);

    String dom = chromium.dumpDom(html);
    assertTrue(dom.contains("<html lang=\"en\" data-report=\"rendered\">"), () -> "not rendered: " + head(dom));
    assertTrue(dom.contains("<pre id=\"sluice-report-errors\" hidden=\"\"></pre>"), () -> "script errors: " + head(dom));

    // the embedded figures are the commands' own
    Matcher m = DATA.matcher(dom);
    assertTrue(m.find(), "no sluice-report-data block");
    JsonNode data = JSON.readTree(m.group(1));
    assertEquals(stats, data.get("stats"));
    assertEquals(wa.get("rows"), data.get("writeAmplification").get("rows"));
    assertEquals(wa.get("totals"), data.get("writeAmplification").get("totals"));
    assertEquals(sizes.get("rows"), data.get("fileSizes").get("rows"));
    assertEquals(sizes.get("totals"), data.get("fileSizes").get("totals"));
    JsonNode instants = timeline.get("instants");
    assertEquals(instants.size(), data.get("timeline").size());
    for (int i = 0; i < instants.size(); i++) {
      ObjectNode e = ((ObjectNode) data.get("timeline").get(i)).deepCopy();
      JsonNode duration = e.remove("durationMillis");
      JsonNode start = e.remove("startMillis");
      JsonNode end = e.remove("endMillis");
      e.remove("completionTime");
      ObjectNode expected = ((ObjectNode) instants.get(i)).deepCopy();
      expected.remove("completionTime");
      assertEquals(expected, e);
      if ("COMPLETED".equals(expected.get("state").asText())) {
        assertTrue(duration.asLong() >= 0 && end.asLong() >= start.asLong(), e + " " + duration);
        assertEquals(end.asLong() - start.asLong(), duration.asLong());
      } else {
        assertTrue(duration.isNull() && end.isNull(), e.toString());
      }
    }

    // every figure shown is the figure of the commands, shown as the page formats it
    Map<String, String> figures = new LinkedHashMap<>();
    Matcher f = FIGURE.matcher(dom);
    while (f.find()) {
      String path = f.group(1);
      String value = f.group(2);
      String shown = f.group(3);
      JsonNode expected = path.startsWith("stats.") ? resolve(stats, path.substring(6))
          : path.startsWith("timeline.") ? resolve(instants, path.substring(9))
          : path.startsWith("fileSizes.rows.") ? resolve(sizes.get("rows"), path.substring(15))
          : path.startsWith("fileSizes.totals.") ? resolve(sizes.get("totals"), path.substring(17))
          : null;
      if (path.endsWith(".durationMillis")) {
        expected = resolve(data.get("timeline"), path.substring(9));
      }
      assertNotNull(expected, "unknown figure " + path);
      if (expected.isNumber()) {
        // the same double, however each side spells it (200.0 in Java, 200 in the page)
        assertEquals(expected.asDouble(), Double.parseDouble(value), 0.0, path);
      } else {
        assertEquals(expected.isNull() ? "" : expected.asText(), value, path);
      }
      assertShown(expected, shown, path);
      figures.put(path, value);
    }
    assertShownEverywhere(stats, figures);
    // the histogram counts every latest base file once
    int counted = 0;
    Matcher b = Pattern.compile("data-bucket-count=\"(\\d+)\"").matcher(dom);
    while (b.find()) {
      counted += Integer.parseInt(b.group(1));
    }
    assertEquals(stats.get("baseFileSizes").get("files").asInt(), counted);
    // one mark on the time chart per instant
    assertEquals(instants.size(), count(section(dom, "timeline"), "<rect "));

    Path png = Path.of("target", "report-screenshots", screenshot);
    chromium.screenshot(html, png, 1280, 2400);
    String docs = System.getProperty("sluice.report.screenshots", "");
    if (!docs.isEmpty()) {
      Path target = HeadlessChromium.repoRoot().resolve(docs).resolve(screenshot);
      Files.createDirectories(target.getParent());
      Files.copy(png, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return new Page(stats, dom, figures);
  }

  /** Nothing the page would fetch: no external script, style, image, font or link target. */
  private static void assertSelfContained(String html) {
    assertTrue(html.contains("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"), "no CSP");
    String withoutSvgNamespace = html.replace("'http://www.w3.org/2000/svg'", "");
    for (String bad : List.of("http://", "https://", "<script src", "<link", "@import", "url(", "<img", "<iframe")) {
      assertFalse(withoutSvgNamespace.contains(bad), "the page refers outside itself: " + bad);
    }
  }

  /** The figures every report must show: per commit, per slice, the read cost, the sizes, each warning's numbers. */
  private static void assertShownEverywhere(JsonNode stats, Map<String, String> figures) {
    List<String> must = new ArrayList<>(List.of("stats.readCost.readAmplification", "stats.readCost.baseBytes",
        "stats.readCost.logBytes", "stats.baseFileSizes.files", "stats.baseFileSizes.median", "stats.baseFileSizes.p90",
        "stats.baseFileSizes.max", "stats.baseFileSizes.smallFiles"));
    for (int i = 0; i < stats.get("commits").size(); i++) {
      for (String c : List.of("writeAmplification", "bytesWritten", "fileGroupsRewritten", "updated")) {
        must.add("stats.commits." + i + "." + c);
      }
    }
    for (int i = 0; i < stats.get("slices").size(); i++) {
      for (String c : List.of("logFiles", "logBytes", "baseFileBytes", "deltaCommitsSinceBase", "readAmplification")) {
        must.add("stats.slices." + i + "." + c);
      }
    }
    for (int i = 0; i < stats.get("warnings").size(); i++) {
      int w = i;
      stats.get("warnings").get(i).get("numbers").fieldNames()
          .forEachRemaining(n -> must.add("stats.warnings." + w + ".numbers." + n));
    }
    List<String> missing = must.stream().filter(p -> !figures.containsKey(p)).toList();
    assertTrue(missing.isEmpty(), "figures not shown: " + missing);
  }

  /** The text a figure shows is its value: integers with thousands separators, ratios to two decimals. */
  private static void assertShown(JsonNode expected, String shown, String path) {
    if (expected.isNull()) {
      assertEquals("–", shown, path);
    } else if (path.endsWith(".durationMillis")) {
      assertFalse(shown.isEmpty(), path);
    } else if (BYTES.matcher(shown).matches()) {
      // bytes in binary units, to one decimal (whole bytes below 1 KiB)
      Matcher m = BYTES.matcher(shown);
      assertTrue(m.matches());
      double unit = Math.pow(1024, List.of("B", "KiB", "MiB", "GiB", "TiB").indexOf(m.group(2)));
      assertEquals(expected.asDouble() / unit, Double.parseDouble(m.group(1)), unit == 1 ? 0.5 : 0.05 + 1e-9, path);
    } else if (expected.isIntegralNumber()) {
      assertEquals(expected.asLong(), Long.parseLong(shown.replace(",", "")), path);
    } else if (expected.isNumber()) {
      assertEquals(expected.asDouble(), Double.parseDouble(shown.replace(",", "")), 0.005 + 1e-9, path);
    } else {
      assertEquals(expected.asText(), shown, path);
    }
  }

  /** {@code a.0.b} (or {@code a.length}) in {@code root}. */
  private static JsonNode resolve(JsonNode root, String path) {
    JsonNode n = root;
    for (String part : path.split("\\.")) {
      if (n == null) {
        return null;
      }
      if (n.isArray() && "length".equals(part)) {
        n = JSON.getNodeFactory().numberNode(n.size());
      } else if (n.isArray()) {
        n = n.get(Integer.parseInt(part));
      } else if (n.isObject() && "length".equals(part) && !n.has("length")) {
        n = JSON.getNodeFactory().numberNode(n.size());
      } else {
        n = n.get(part);
      }
    }
    return n;
  }

  private static List<String> codes(JsonNode stats) {
    List<String> codes = new ArrayList<>();
    stats.get("warnings").forEach(w -> codes.add(w.get("code").asText()));
    return codes;
  }

  /** The warning is shown in full in the section of the figures it is about. */
  private static void assertWarningIn(String dom, String code, String sectionId) {
    assertTrue(section(dom, sectionId).contains("data-warning=\"" + code + "\""), code + " not in section " + sectionId);
  }

  private static Set<String> chartActions(String dom) {
    Set<String> out = new HashSet<>();
    Matcher m = Pattern.compile("data-action=\"([a-z]+)\"").matcher(section(dom, "timeline"));
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static String section(String dom, String id) {
    int start = dom.indexOf("<section id=\"" + id + "\"");
    assertTrue(start >= 0, "no section " + id);
    return dom.substring(start, dom.indexOf("</section>", start));
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  private static String head(String dom) {
    return dom.substring(0, Math.min(3000, dom.length()));
  }
}
