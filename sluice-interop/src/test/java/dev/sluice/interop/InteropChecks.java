package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.sluice.api.Table;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/** Assertions shared by the interop tests: Hudi's view of a table against Sluice's. */
final class InteropChecks {

  private InteropChecks() {
  }

  /**
   * Runs {@code batch} (Hudi's writes, say) followed by Hudi 0.15's metadata-table listing with each of
   * {@code readers}, all in one oracle JVM (its start is most of a check's time), then asserts that each listing is
   * what the table's folders hold.
   */
  static void assertHudiListsWhatIsOnDisk(OracleBatch batch, Path table, String step, String... readers)
      throws IOException {
    List<OracleBatch.Pending<Map<String, Map<String, Long>>>> listings = new ArrayList<>();
    for (String reader : readers) {
      listings.add(batch.metadataListing(table, reader));
    }
    batch.run();
    Map<String, Map<String, Long>> onDisk = MetadataListingOracleTest.listing(table);
    for (int i = 0; i < readers.length; i++) {
      assertEquals(onDisk, listings.get(i).get(), step + ", " + readers[i] + " reader");
    }
  }

  /** Sluice's latest base files as {@code partition|fileId|baseInstant|fileName}, sorted. */
  static List<String> sluiceLatestBaseFiles(Table table) {
    List<String> out = new ArrayList<>();
    FileSystemView view = TableInternals.fileSystemView(table);
    for (String partition : view.partitions()) {
      for (BaseFile b : view.latestBaseFiles(partition)) {
        out.add(partition + "|" + b.fileId() + "|" + b.instantTime() + "|" + b.fileName());
      }
    }
    Collections.sort(out);
    return out;
  }

  /** Hudi's latest file slices in the same form; asserts Copy-on-Write slices have no log files. */
  static List<String> hudiLatestBaseFiles(List<OracleFileSlice> slices) {
    List<String> out = new ArrayList<>();
    for (OracleFileSlice s : slices) {
      assertTrue(s.logFiles().isEmpty(), "Copy-on-Write slice with log files: " + s);
      out.add(s.partition() + "|" + s.fileId() + "|" + s.baseInstant() + "|" + s.baseFile().orElse("<none>"));
    }
    Collections.sort(out);
    return out;
  }

  /** Asserts Hudi's file-system view lists exactly Sluice's latest base files. */
  static void assertSameFileSystemView(List<OracleFileSlice> hudiView, Table table) {
    assertEquals(sluiceLatestBaseFiles(table), hudiLatestBaseFiles(hudiView), "latest base files: Sluice's view vs Hudi's");
  }

  /** Asserts Hudi's active timeline is exactly these completed commits, in order. */
  static void assertCompletedCommits(List<Map<String, String>> hudiTimeline, List<String> commits) {
    List<String> want = commits.stream().map(c -> c + " commit COMPLETED").collect(Collectors.toList());
    List<String> got = hudiTimeline.stream()
        .map(i -> i.get("time") + " " + i.get("action") + " " + i.get("state")).collect(Collectors.toList());
    assertEquals(want, got, "Hudi's active timeline");
  }

  /** Asserts every row's {@code _hoodie_file_name} is a latest base file of the row's partition. */
  static void assertRowsInLatestFiles(List<GenericRecord> rows, Table table) {
    List<String> files = sluiceLatestBaseFiles(table);
    for (GenericRecord row : rows) {
      String partition = Rows.text(row, Rows.PARTITION);
      String file = Rows.text(row, Rows.FILE_NAME);
      assertTrue(files.stream().anyMatch(f -> f.startsWith(partition + "|") && f.endsWith("|" + file)),
          "row " + Rows.text(row, Rows.RECORD_KEY) + " names " + file + ", not a latest base file of '" + partition
              + "': " + files);
    }
  }

  /**
   * Asserts Hudi's table schema is the five meta fields followed by exactly {@code dataSchema}'s fields, and that
   * Sluice reports the same data schema.
   */
  static void assertSchema(Schema hudi, Table table, Schema dataSchema) {
    assertEquals(Rows.META, Rows.fieldNames(hudi).subList(0, Rows.META.size()), "Hudi schema's meta fields");
    Schema hudiData = withoutMeta(hudi);
    assertEquals(dataSchema, hudiData, "Hudi's table schema without meta fields vs the schema written");
    assertEquals(hudiData, table.schema(), "Sluice's table schema vs Hudi's");
  }

  /** A record schema without the five meta fields. */
  static Schema withoutMeta(Schema schema) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      if (!Rows.META.contains(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    Schema out = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
    schema.getObjectProps().forEach(out::addProp);
    return out;
  }

  /**
   * Checks what Hudi's bloom-filter code read from a base file's footer (asked for the present and the absent
   * keys): every key in the file might be contained, most absent keys are not, and the min/max record keys are
   * those of the file's rows.
   */
  static void assertBloomFilter(OracleBloom bloom, Path file, List<String> presentKeys, List<String> absentKeys) {
    assertEquals(Optional.of("DYNAMIC_V0"), bloom.type(), "bloom filter type of " + file);
    for (String key : presentKeys) {
      assertEquals(Boolean.TRUE, bloom.contains().get(key), "Hudi's mightContain(" + key + ") for a key in " + file);
    }
    long falsePositives = absentKeys.stream().filter(k -> bloom.contains().get(k)).count();
    assertTrue(falsePositives <= absentKeys.size() / 10, falsePositives + " of " + absentKeys.size()
        + " absent keys reported present: " + bloom.contains());
    assertEquals(Optional.of(Collections.min(presentKeys)), bloom.minKey(), "hoodie_min_record_key of " + file);
    assertEquals(Optional.of(Collections.max(presentKeys)), bloom.maxKey(), "hoodie_max_record_key of " + file);
  }

  /** The record keys of the rows that name {@code fileName}. */
  static List<String> keysInFile(List<GenericRecord> rows, String fileName) {
    return rows.stream().filter(r -> fileName.equals(Rows.text(r, Rows.FILE_NAME)))
        .map(r -> Rows.text(r, Rows.RECORD_KEY)).sorted().collect(Collectors.toList());
  }

  /** Reads {@code hoodie.properties} as plain properties. */
  static Map<String, String> hoodieProperties(Path location) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(location.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> out = new TreeMap<>();
    p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
    return out;
  }

  /**
   * The metadata table's initialization instants ({@code <instant>010.deltacommit}): its delta commits ending in
   * {@code 010} that do not mirror a data-table instant. A bare suffix match is not enough: a data-table instant whose
   * milliseconds are 010 is mirrored under the same name.
   */
  static List<String> metadataInitializations(Path table) throws IOException {
    java.util.Set<String> dataInstants;
    try (var s = Files.list(table.resolve(".hoodie"))) {
      dataInstants = s.map(p -> p.getFileName().toString()).filter(n -> n.indexOf('.') > 0)
          .map(n -> n.substring(0, n.indexOf('.'))).collect(Collectors.toSet());
    }
    try (var s = Files.list(table.resolve(".hoodie/metadata/.hoodie"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("010.deltacommit"))
          .filter(n -> !dataInstants.contains(n.substring(0, n.indexOf('.')))).sorted().toList();
    }
  }
}
