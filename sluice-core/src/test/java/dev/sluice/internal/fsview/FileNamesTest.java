package dev.sluice.internal.fsview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FileNamesTest {
  private static final String ID = "35cb031b-b41b-4083-baf4-6c202b66d97c-0";

  @Test
  void baseFileNameMatchesTheObservedOne() {
    assertEquals(ID + "_0-0-0_20261201184817968.parquet", FileNames.baseFileName(ID, "0-0-0", "20261201184817968"));
    assertEquals(Optional.of(new BaseFileName(ID, "0-0-0", "20261201184817968", ".parquet")),
        FileNames.parseBase(ID + "_0-0-0_20261201184817968.parquet"));
    assertEquals(Optional.of(new BaseFileName("f-1", "12-3-45", "001", ".parquet")),
        FileNames.parseBase("f-1_12-3-45_001.parquet"));
  }

  @Test
  void nonBaseNamesDoNotParseAsBase() {
    for (String n : new String[] {"." + ID + "_001.log.1_0-0-0", ID + "_0-0-0_001.parquet.crc", "_SUCCESS",
        ".hoodie_partition_metadata", ID + "_001.parquet", "." + ID + "_0-0-0_001.parquet", "x.txt"}) {
      assertEquals(Optional.empty(), FileNames.parseBase(n), n);
    }
  }

  @Test
  void logFileNameMatchesTheObservedOne() {
    String name = ".589cff81-1251-414b-9946-8a3b20d9ccf6-0_20261201184916996.log.1_0-0-0";
    assertEquals(name, FileNames.logFileName("589cff81-1251-414b-9946-8a3b20d9ccf6-0", "20261201184916996", 1, "0-0-0"));
    LogFileName l = FileNames.parseLog(name).orElseThrow();
    assertEquals("589cff81-1251-414b-9946-8a3b20d9ccf6-0", l.fileId());
    assertEquals("20261201184916996", l.baseInstant());
    assertEquals("log", l.extension());
    assertEquals(1, l.version());
    assertEquals(Optional.of("0-0-0"), l.writeToken());
    assertEquals("", l.suffix());
    assertEquals(name, l.fileName());
  }

  @Test
  void logRegexCases() {
    // no write token (older writers)
    LogFileName noToken = FileNames.parseLog(".f-0_001.log.12").orElseThrow();
    assertEquals(12, noToken.version());
    assertEquals(Optional.empty(), noToken.writeToken());
    // CDC log
    assertEquals(".cdc", FileNames.parseLog(".f-0_001.log.2_1-0-1.cdc").orElseThrow().suffix());
    // archived timeline file: file id "commits", empty base instant
    LogFileName archive = FileNames.parseLog(".commits_.archive.1_1-0-1").orElseThrow();
    assertEquals("commits", archive.fileId());
    assertEquals("", archive.baseInstant());
    assertEquals("archive", archive.extension());
    // multi-digit tokens
    assertEquals(Optional.of("10-200-3000"), FileNames.parseLog(".f-0_001.log.1_10-200-3000").orElseThrow().writeToken());
    // not logs
    for (String n : new String[] {"f-0_001.log.1_0-0-0", ".f-0_001.log.x_0-0-0", ".f-0_001.log.1_0-0-0.crc",
        "..f-0_001.log.1_0-0-0.crc", ".f-0_001.txt.1_0-0-0", ".f-0.log.1"}) {
      assertEquals(Optional.empty(), FileNames.parseLog(n), n);
    }
  }

  @Test
  void dataFileCandidates() {
    assertTrue(FileNames.isDataFileCandidate("f-0_0-0-0_001.parquet"));
    assertTrue(FileNames.isDataFileCandidate(".f-0_001.log.1_0-0-0"));
    for (String n : new String[] {".f-0_0-0-0_001.parquet.crc", "..f-0_001.log.1_0-0-0.crc", ".hoodie_partition_metadata",
        ".hoodie_partition_metadata_1234", "_SUCCESS", "_f-0_0-0-0_001.parquet", ".commits_.archive.1_1-0-1", "notes"}) {
      assertFalse(FileNames.isDataFileCandidate(n), n);
    }
  }

  @Test
  void fileIdsFromPrefixes() {
    String p = FileNames.newFileIdPrefix();
    assertEquals(36, p.length());
    assertNotEquals(p, FileNames.newFileIdPrefix());
    assertEquals(p + "-3", FileNames.fileId(p, 3));
    assertEquals(Optional.of(p), FileNames.fileIdPrefix(FileNames.fileId(p, 3)));
  }

  @Test
  void logFilesSortInHudiOrder() {
    List<LogFile> logs = new ArrayList<>(List.of(
        log("002", 1, "0-0-0"), log("001", 10, "0-0-0"), log("001", 2, "1-0-1"), log("001", 2, "0-0-0"),
        log("001", 1, "")));
    logs.sort(null);
    assertEquals(List.of(log("001", 1, ""), log("001", 2, "0-0-0"), log("001", 2, "1-0-1"), log("001", 10, "0-0-0"),
        log("002", 1, "0-0-0")), logs);
  }

  private static LogFile log(String base, int version, String token) {
    String name = token.isEmpty() ? ".f-0_" + base + ".log." + version
        : FileNames.logFileName("f-0", base, version, token);
    return new LogFile("/t/p/" + name, name, "f-0", base, version, token, 1);
  }
}
