package dev.sluice.oracle;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Entry point of the Hudi 0.15.0 oracle: {@code Oracle <command> [options]}.
 * Results go to stdout; failures go to stderr with a non-zero exit code (2 for usage errors, 1 otherwise).
 */
public final class Oracle {

  private static final String USAGE = String.join(System.lineSeparator(),
      "usage: Oracle <command> [options]",
      "  create   --table PATH --type COPY_ON_WRITE|MERGE_ON_READ --name N --record-key F[,F] --precombine F",
      "           [--partition-fields F[,F]] [--hive-style] [--payload CLASS] --schema FILE.avsc",
      "  write    --table PATH --op insert|upsert|delete|bulk_insert --input FILE [--conf k=v ...]",
      "  read     --table PATH [--query snapshot|read_optimized] [--as-of INSTANT] [--use-metadata] [--conf k=v ...]",
      "  timeline --table PATH [--archived] [--conf k=v ...]",
      "  fsview   --table PATH [--use-metadata] [--conf k=v ...]",
      "  bloom    --file PARQUET_PATH [--keys k1,k2,...] [--keys-file F (one key per line)] [--conf k=v ...]",
      "  schema   --table PATH [--conf k=v ...]",
      "  metadata --table PATH [--conf k=v ...]   (rollback, savepoint and restore metadata as Hudi decodes it)",
      "  mdt-files --table PATH [--reader hbase|native]   (partitions and files as the metadata table lists them)",
      "  mdt-index --table PATH --keys-file F [--reader hbase|native]   (record-index locations of F's keys)",
      "  compact  --table PATH (--schedule | --run INSTANT) [--conf k=v ...]   (Hudi's scheduler / compactor)",
      "           (--conf on read, inspect and compact commands: Hadoop settings, e.g. fs.s3a.endpoint=..., for",
      "            hdfs:// and s3a:// tables; on write: Hudi write options, also set on the Hadoop configuration)",
      "  hfile-read  --files F[,F] --readers native,hbase   (cells, lookups and seekBefore per file and reader)",
      "  hfile-log   --file LOG [--conf _hoodie.hfile.use.native.reader=true]   (data blocks' records via Hudi's log reader)",
      "  hfile-write --file F --input CELLS.jsonl [--codec GZ|NONE] [--block-size N] [--index-block-size N]",
      "  batch    --script FILE   (one command per line as a JSON array; output sections '#batch <i> <status>')",
      "  warmup   --dir SCRATCH_DIR   (exercises every command once, e.g. to build a class-data-sharing archive)");

  private Oracle() {
  }

  /**
   * Runs one command and exits the JVM with its status.
   *
   * @param args the command name followed by its options
   */
  public static void main(String[] args) {
    // Hudi sizes records with JOL, whose default probing forks a serviceability-agent process (seconds per call).
    System.setProperty("jol.skipHotspotSAAttach", "true");
    System.setProperty("jol.skipDynamicAttach", "true");
    System.setProperty("jol.skipInstallAttach", "true");
    // The oracle only reaches stores on this machine: the AWS SDK (s3a) must never ask a cloud instance-metadata
    // service for credentials or a region. Tests name both in --conf.
    System.setProperty("com.amazonaws.sdk.disableEc2Metadata", "true");
    // Results own the real stdout; anything a library prints to System.out (JOL does) goes to stderr instead.
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    int status = run(Arrays.asList(args), out, System.err);
    out.flush();
    System.exit(status);
  }

  /**
   * Runs one command, writing results to {@code out} and diagnostics to {@code err}.
   *
   * @return the process exit status
   */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty()) {
      err.println(USAGE);
      return 2;
    }
    String command = args.get(0);
    List<String> rest = args.subList(1, args.size());
    try {
      switch (command) {
        case "create":
          CreateCommand.run(Args.parse(rest, Set.of("hive-style")), out);
          break;
        case "write":
          WriteCommand.run(Args.parse(rest, Set.of()), out);
          break;
        case "read":
          ReadCommand.run(Args.parse(rest, Set.of("use-metadata")), out);
          break;
        case "timeline":
          InspectCommands.timeline(Args.parse(rest, Set.of("archived")), out);
          break;
        case "fsview":
          InspectCommands.fsview(Args.parse(rest, Set.of("use-metadata")), out);
          break;
        case "bloom":
          InspectCommands.bloom(Args.parse(rest, Set.of()), out);
          break;
        case "schema":
          InspectCommands.schema(Args.parse(rest, Set.of()), out);
          break;
        case "metadata":
          MetadataCommand.run(Args.parse(rest, Set.of()), out);
          break;
        case "mdt-files":
          MetadataTableCommand.files(Args.parse(rest, Set.of()), out);
          break;
        case "mdt-index":
          MetadataTableCommand.index(Args.parse(rest, Set.of()), out);
          break;
        case "compact":
          CompactCommand.run(Args.parse(rest, Set.of("schedule")), out);
          break;
        case "hfile-read":
          HFileCommand.read(Args.parse(rest, Set.of()), out);
          break;
        case "hfile-log":
          HFileCommand.log(Args.parse(rest, Set.of()), out);
          break;
        case "hfile-write":
          HFileCommand.write(Args.parse(rest, Set.of()), out);
          break;
        case "warmup":
          WarmupCommand.run(Args.parse(rest, Set.of()), out);
          break;
        case "batch": {
          int status = BatchCommand.run(Args.parse(rest, Set.of()), out, err);
          out.flush();
          return status;
        }
        default:
          throw new Args.UsageException("unknown command: " + command);
      }
      out.flush();
      return 0;
    } catch (Args.UsageException e) {
      err.println("oracle: " + e.getMessage());
      err.println(USAGE);
      return 2;
    } catch (IOException | RuntimeException e) {
      err.println("oracle " + command + " failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }
}
