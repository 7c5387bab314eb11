package dev.sluice.cli;

import dev.sluice.api.ConfigKey;
import dev.sluice.api.ConfigKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The texts of {@code sluice help TOPIC}. The configuration topic is generated from {@link ConfigKeys#all()}, so a new
 * key shows up without editing this class; the others describe what the code they name accepts (the where grammar is
 * {@link dev.sluice.api.ExpressionParser}'s, the formats {@code InputFormat}'s).
 */
final class HelpTopics {
  /** Text width the configuration descriptions are wrapped to. */
  private static final int WIDTH = 100;

  /**
   * One topic.
   *
   * @param name what follows {@code sluice help}
   * @param summary one line for the topic list
   * @param text the full text, without the trailing line break
   */
  record Topic(String name, String summary, String text) {
  }

  private HelpTopics() {
  }

  /** The topics, in the order {@code sluice help} lists them. */
  static List<Topic> all() {
    return List.of(
        new Topic("where", "the --where filter grammar of 'sluice query'", where()),
        new Topic("config", "configuration keys (--conf KEY=VALUE, --config FILE): name, default, description",
            config()),
        new Topic("formats", "input file formats the write verbs and 'advise --input' read (--format)", formats()),
        new Topic("java-opts", "SLUICE_JAVA_OPTS: JVM options for bin/sluice (heap size, GC)", javaOpts()));
  }

  /** The topic named {@code name} (case-insensitive; {@code SLUICE_JAVA_OPTS} is an alias of java-opts). */
  static Optional<Topic> find(String name) {
    Map<String, String> aliases = new LinkedHashMap<>();
    aliases.put("sluice_java_opts", "java-opts");
    aliases.put("configuration", "config");
    aliases.put("input", "formats");
    String n = name.toLowerCase(java.util.Locale.ROOT);
    String key = aliases.getOrDefault(n, n);
    return all().stream().filter(t -> t.name().equals(key)).findFirst();
  }

  private static String where() {
    return String.join("\n",
        "sluice query TABLE --where EXPR keeps the rows EXPR is true for. Grammar (keywords in any case):",
        "",
        "  expr      := and ('or' and)*",
        "  and       := not ('and' not)*",
        "  not       := 'not' not | '(' expr ')' | predicate",
        "  predicate := column op literal",
        "             | column ['not'] 'in' '(' literal (',' literal)* ')'",
        "             | column 'is' ['not'] 'null'",
        "  op        := =  ==  !=  <>  <  <=  >  >=",
        "  column    := name ('.' name)*     (a nested field as address.city)",
        "  name      := a letter or _, then letters, digits or _; or any text in backticks: `odd name`",
        "               (`` inside backticks for one backtick; a backticked name cannot be empty or hold '.')",
        "  literal   := 'text' ('' inside for one quote) | integer | decimal | true | false | null",
        "",
        "Precedence: not binds tighter than and, and tighter than or; use parentheses to group.",
        "Integers and decimals may start with '-' and may have an exponent (1e3); an integer beyond the",
        "range of a long is kept as an exact decimal. The keywords and, or, not, in, is, null, true and",
        "false are not column names unless quoted in backticks (`in`).",
        "A mistake is reported with its 1-based character position; --where \"city = \" gives:",
        "  error: --where expression: unexpected end of input at position 8 in: city = . Expected a value: ...",
        "",
        "Examples:",
        "  --where \"city = 'oslo' and fare > 5\"",
        "  --where \"id in ('a', 'b') or (ts >= 100 and not note is null)\"",
        "  --where \"`order`.total <> 0\"");
  }

  private static String config() {
    StringBuilder sb = new StringBuilder();
    sb.append("Options are given as --conf KEY=VALUE (repeatable) or --config FILE (a Java properties file; --conf\n")
        .append("wins). Keys are Hudi's property names where Hudi has one; an unknown hoodie.* or sluice.* key is\n")
        .append("warned about, or refused with --strict-config. Storage settings (fs.s3a.*, ...) pass through.\n");
    for (ConfigKey<?> k : ConfigKeys.all()) {
      sb.append('\n').append(k.name()).append("  (default: ")
          .append(k.defaultValue() == null ? "none" : String.valueOf(k.defaultValue())).append(")\n");
      for (String line : wrap(k.doc(), WIDTH - 4)) {
        sb.append("    ").append(line).append('\n');
      }
    }
    sb.setLength(sb.length() - 1);
    return sb.toString();
  }

  private static String formats() {
    return String.join("\n",
        "The write verbs (insert, upsert, delete, bulk-insert) take input FILES as arguments; 'advise' takes",
        "them after --input. Each file is local. Its format comes from --format, else from its extension:",
        "",
        "  --format json (or jsonl)   .json .jsonl .ndjson   JSON Lines: one plain JSON object per line (not Avro's",
        "                                                   JSON encoding); nested records and maps are objects,",
        "                                                   bytes/fixed base64, decimals numbers or strings,",
        "                                                   dates/times/timestamps ISO-8601 strings or numbers",
        "                                                   (epoch days / millis / micros)",
        "  --format csv               .csv                   a header line naming the columns (any order), RFC 4180",
        "                                                   quoting; an empty cell is null; nested values as JSON",
        "  --format avro              .avro                  an Avro container file, resolved by field name",
        "  --format parquet           .parquet               a Parquet file, resolved by field name",
        "",
        "Extensions match in any case; another extension needs --format. Fields are matched to the table schema",
        "by name; a field the table does not have is an error unless --ignore-unknown-fields is given (delete",
        "reads only the key fields and ignores the rest). --schema FILE.avsc reads the input with that schema and",
        "evolves the table to it. Every record is checked before anything is written: a bad one fails the write",
        "naming the file, line and field (exit 3), and nothing is committed. Limits: "
            + ConfigKeys.INPUT_MAX_VALUE_LENGTH.name() + " (default " + ConfigKeys.INPUT_MAX_VALUE_LENGTH.defaultValue()
            + ")",
        "characters per text value, " + ConfigKeys.INPUT_MAX_NESTING_DEPTH.name() + " (default "
            + ConfigKeys.INPUT_MAX_NESTING_DEPTH.defaultValue() + ") levels of JSON nesting.",
        "'sluice query --format jsonl' writes the JSON Lines form, so its output can be written back.");
  }

  private static String javaOpts() {
    return String.join("\n",
        "bin/sluice starts java with the options in the environment variable SLUICE_JAVA_OPTS; when it is unset",
        "or empty, with -XX:+UseParallelGC. Setting it replaces that default, so repeat it if you want it:",
        "",
        "  SLUICE_JAVA_OPTS='-Xmx8g -XX:+UseParallelGC' sluice upsert /data/trips big.jsonl",
        "",
        "The JVM's default heap is a quarter of the machine's memory; a write that runs out of it fails with",
        "'error: ... the Java heap (at most N MiB) ran out. Give the JVM more memory (SLUICE_JAVA_OPTS=-Xmx...)',",
        "and nothing is committed. JAVA_HOME, when set, picks the java binary.",
        "",
        "query, upsert and delete run on the C1 compiler alone (-XX:TieredStopAtLevel=1 before SLUICE_JAVA_OPTS):",
        "a short run in a fresh JVM wins more than the C2 compiler's work costs; -XX:TieredStopAtLevel=4 in",
        "SLUICE_JAVA_OPTS gives C2 back (a very long query or a large upsert). On JDK 25 and later a query keeps",
        "C2 (for its hotter methods: -XX:CompileThresholdScaling=4): its ahead-of-time cache holds the",
        "methods' profiles, so C2 starts early. upsert and delete also",
        "start with an eighth of the memory as their heap, half of it young",
        "(-XX:InitialRAMPercentage=12.5 -XX:NewRatio=1: fewer collections while the batch is held); an -Xms or",
        "-Xmn in SLUICE_JAVA_OPTS wins over it.",
        "",
        "The first run of each kind of command records a class-data sharing archive (faster starts after) under",
        "~/.cache/sluice/cds; SLUICE_CACHE_DIR=DIR moves it to DIR/cds, SLUICE_CDS=off turns it off. With",
        "JAVA_HOME at a JDK 25 or later that archive is the JDK's ahead-of-time cache (classes linked ahead).");
  }

  /** Splits {@code text} into lines of at most {@code width} characters at spaces. */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }
}
