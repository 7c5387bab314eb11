package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogDumpTest {
  @TempDir
  Path dir;

  @Test
  void summarizesEveryBlock() throws IOException {
    LocalStorage storage = new LocalStorage();
    AppendResult r;
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      w.appendBlocks(List.of(DataBlock.of("001", LogFixture.SCHEMA, LogFixture.trips("a", 5, 1)),
          DeleteBlock.of("001", List.of(DeleteRecord.of("x", "p"), DeleteRecord.of("y", "p")))));
      r = w.appendBlocks(List.of(CommandBlock.rollback("003", "002")));
    }
    // plus a torn block
    Files.write(Path.of(r.file().path()), "#HUDI#torn".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        java.nio.file.StandardOpenOption.APPEND);
    List<LogDump.BlockSummary> s = LogDump.list(storage, r.file().path());
    assertEquals(List.of(LogBlockType.AVRO_DATA_BLOCK, LogBlockType.DELETE_BLOCK, LogBlockType.COMMAND_BLOCK,
        LogBlockType.CORRUPT_BLOCK), s.stream().map(LogDump.BlockSummary::type).toList());
    assertEquals(List.of(OptionalLong.of(5), OptionalLong.of(2), OptionalLong.of(0), OptionalLong.of(0)),
        s.stream().map(LogDump.BlockSummary::records).toList());
    assertEquals(List.of(Optional.of("001"), Optional.of("001"), Optional.of("003"), Optional.empty()),
        s.stream().map(LogDump.BlockSummary::instantTime).toList());
    assertEquals(List.of(HeaderKey.INSTANT_TIME, HeaderKey.SCHEMA), s.get(0).headerKeys());
    assertEquals(List.of(HeaderKey.INSTANT_TIME, HeaderKey.TARGET_INSTANT_TIME, HeaderKey.COMMAND_BLOCK_TYPE), s.get(2).headerKeys());
    assertEquals(0, s.get(0).offset());
    for (int i = 1; i < s.size(); i++) {
      assertEquals(s.get(i - 1).offset() + s.get(i - 1).size(), s.get(i).offset());
    }
    assertEquals(r.offset(), s.get(2).offset());
    assertEquals(Files.size(Path.of(r.file().path())), s.get(3).offset() + s.get(3).size());
  }
}
