package dev.sluice.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ArgsTest {

  @Test
  void parsesOptionsFlagsListsAndRepeatedConf() {
    Args args = Args.parse(List.of("--table", "/t", "--hive-style", "--record-key", "id, sub,",
        "--conf", "a=1", "--conf", "b=x=y"), Set.of("hive-style"));
    assertEquals("/t", args.required("table"));
    assertTrue(args.flag("hive-style"));
    assertFalse(args.flag("use-metadata"));
    assertEquals(List.of("id", "sub"), args.list("record-key"));
    assertEquals(List.of(), args.list("partition-fields"));
    assertEquals(Map.of("a", "1", "b", "x=y"), args.conf());
    assertEquals(Optional.empty(), args.optional("as-of"));
  }

  @Test
  void rejectsBadCommandLines() {
    assertThrows(Args.UsageException.class, () -> Args.parse(List.of("--table"), Set.of()));
    assertThrows(Args.UsageException.class, () -> Args.parse(List.of("table"), Set.of()));
    assertThrows(Args.UsageException.class, () -> Args.parse(List.of("--conf", "novalue"), Set.of()));
    assertThrows(Args.UsageException.class, () -> Args.parse(List.of("--a", "1", "--a", "2"), Set.of()));
    assertThrows(Args.UsageException.class, () -> Args.parse(List.of(), Set.of()).required("table"));
  }

  @Test
  void unknownCommandExitsWithUsageStatus() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Oracle.run(List.of("frobnicate"), new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, status);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command: frobnicate"));
  }

  @Test
  void permissionBitsMapToPosixPermissions() {
    assertEquals(PosixFilePermissions.fromString("rwxr-xr-x"),
        NioLocalFileSystem.NioRawLocalFileSystem.posix((short) 0755));
    assertEquals(PosixFilePermissions.fromString("rw-r-----"),
        NioLocalFileSystem.NioRawLocalFileSystem.posix((short) 0640));
  }
}
