package dev.sluice.oracle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's checksummed local file system ({@code .crc} side files and all), except that permissions are set with
 * NIO: without Hadoop's native library, stock Hadoop forks {@code chmod} for every file it creates, which costs
 * seconds per oracle call. The files, their bytes and their permissions are the same.
 */
public final class NioLocalFileSystem extends LocalFileSystem {

  /** Called by Hadoop's FileSystem factory ({@code fs.file.impl}). */
  public NioLocalFileSystem() {
    super(new NioRawLocalFileSystem());
  }

  /** The raw (non-checksummed) layer with the NIO permission call. */
  static final class NioRawLocalFileSystem extends RawLocalFileSystem {

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(permission.toShort()));
    }

    static Set<PosixFilePermission> posix(short mode) {
      Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
      PosixFilePermission[] order = {
          PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
          PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
          PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
      for (int bit = 0; bit < order.length; bit++) {
        if ((mode & (1 << bit)) != 0) {
          out.add(order[bit]);
        }
      }
      return out;
    }
  }
}
