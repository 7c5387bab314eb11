package dev.sluice.oracle;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

/**
 * Entry point of the Hudi 1.1.1 oracle: {@code Oracle <command> [options]}, the same command names, options and
 * output as the Hudi 0.15.0 oracle for the commands it has. Results go to stdout; failures to stderr with exit code 1
 * (2 for a bad command line).
 */
public final class Oracle {

  private static final String USAGE = String.join(System.lineSeparator(),
      "usage: Oracle <command> [options]   (Apache Hudi 1.1.1)",
      "  create   --table PATH --type COPY_ON_WRITE|MERGE_ON_READ --name N --record-key F[,F] [--precombine F]",
      "           [--partition-fields F[,F]] [--hive-style] [--merge-mode COMMIT_TIME_ORDERING|EVENT_TIME_ORDERING]",
      "           [--table-version 8|9 (default 9)] --schema FILE.avsc",
      "  write    --table PATH --op insert|upsert|delete|bulk_insert|compact|schedule-compaction|clean",
      "           |run-compaction (with --instant T)|upsert-during-compaction --input FILE",
      "           [--uncommitted] [--conf k=v ...]",
      "  read     --table PATH [--query snapshot|read_optimized] [--as-of INSTANT] [--use-metadata] [--conf k=v ...]",
      "  timeline --table PATH [--archived] [--conf k=v ...]   (--archived: the LSM archived timeline, with completion times)",
      "  fsview   --table PATH [--use-metadata] [--conf k=v ...]",
      "  mdt-files --table PATH [--conf k=v ...]   (partitions and files as the metadata table lists them)",
      "  mdt-index --table PATH --keys-file F [--partition P]   (record-index locations of F's keys)",
      "  batch    --script FILE   (one command per line as a JSON array; output sections '#batch <i> <status>')",
      "  warmup   --dir SCRATCH_DIR   (exercises every command once, e.g. to build a class-data-sharing archive)");

  private static final ObjectMapper JSON = new ObjectMapper();

  private Oracle() {
  }

  /** Runs one command and exits the JVM with its status. */
  public static void main(String[] args) {
    // Hudi sizes records with JOL, whose default probing forks a serviceability-agent process (seconds per call).
    System.setProperty("jol.skipHotspotSAAttach", "true");
    System.setProperty("jol.skipDynamicAttach", "true");
    System.setProperty("jol.skipInstallAttach", "true");
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    int status = run(Arrays.asList(args), out, System.err);
    out.flush();
    System.exit(status);
  }

  /** Runs one command, writing results to {@code out} and diagnostics to {@code err}; returns the exit status. */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty()) {
      err.println(USAGE);
      return 2;
    }
    String command = args.get(0);
    List<String> rest = args.subList(1, args.size());
    try {
      switch (command) {
        case "create" -> CreateCommand.run(Args.parse(rest, Set.of("hive-style")), out);
        case "write" -> WriteCommand.run(Args.parse(rest, Set.of("uncommitted")), out);
        case "fsview" -> FileSlices.run(Args.parse(rest, Set.of("use-metadata")), out);
        case "read" -> SnapshotRead.run(Args.parse(rest, Set.of("use-metadata")), out);
        case "timeline" -> timeline(Args.parse(rest, Set.of("archived")), out);
        case "mdt-files" -> MetadataListing.run(Args.parse(rest, Set.of()), out);
        case "mdt-index" -> RecordIndexLookup.run(Args.parse(rest, Set.of()), out);
        case "warmup" -> warmup(Args.parse(rest, Set.of()), out);
        case "batch" -> {
          int status = BatchScript.run(Args.parse(rest, Set.of()), out, err, Oracle::run);
          out.flush();
          return status;
        }
        default -> throw new Args.UsageException("unknown command: " + command);
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

  /**
   * One line per instant of the active timeline in timeline order, as the 0.15 oracle prints it, with the completion
   * time Hudi 1.x gives a completed instant (for a version-6 table: the file's modification time).
   */
  private static final Set<String> COMMIT_ACTIONS = Set.of("commit", "deltacommit", "replacecommit");

  private static void timeline(Args args, PrintStream out) throws IOException {
    HoodieTableMetaClient metaClient = Hudi1Env.metaClient(args.required("table"), args.conf());
    if (args.flag("archived")) {
      archivedTimeline(metaClient, out);
      return;
    }
    for (HoodieInstant instant : metaClient.getActiveTimeline().getInstants()) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("time", instant.requestedTime());
      line.put("action", instant.getAction());
      line.put("state", instant.getState().name());
      if (instant.isCompleted() && instant.getCompletionTime() != null) {
        line.put("completionTime", instant.getCompletionTime());
      }
      if (instant.isCompleted() && COMMIT_ACTIONS.contains(instant.getAction())) {
        // decoded by Hudi's own serde: what a 1.x reader makes of the commit file (Avro for layout 2)
        HoodieCommitMetadata md = metaClient.getActiveTimeline().readCommitMetadata(instant);
        line.put("operationType", md.getOperationType().name());
        line.put("recordsWritten", Long.toString(md.fetchTotalRecordsWritten()));
        line.put("writeStats", md.getPartitionToWriteStats().values().stream().flatMap(List::stream)
            .map(w -> w.getPartitionPath() + "/" + w.getFileId() + ":" + w.getPrevCommit() + ":" + w.getNumWrites()
                + ":" + w.getNumDeletes())
            .sorted().collect(Collectors.joining(",")));
      }
      out.println(JSON.writeValueAsString(line));
    }
  }

  /**
   * One line per instant of the archived timeline as Hudi 1.x loads it ({@code HoodieArchivedTimeline}: for version
   * 8/9 tables the LSM timeline's latest snapshot), in timeline order: time, action, state, completion time, and for
   * completed commits and delta commits the records their archived commit metadata says they wrote (so the archived
   * metadata bytes are decoded by Hudi too).
   */
  private static void archivedTimeline(HoodieTableMetaClient metaClient, PrintStream out) throws IOException {
    HoodieArchivedTimeline archived = metaClient.getArchivedTimeline();
    archived.loadCompletedInstantDetailsInMemory();
    for (HoodieInstant instant : archived.getInstants()) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("time", instant.requestedTime());
      line.put("action", instant.getAction());
      line.put("state", instant.getState().name());
      if (instant.getCompletionTime() != null) {
        line.put("completionTime", instant.getCompletionTime());
      }
      boolean commit = instant.getAction().equals(HoodieTimeline.COMMIT_ACTION)
          || instant.getAction().equals(HoodieTimeline.DELTA_COMMIT_ACTION);
      if (commit && instant.isCompleted() && archived.getInstantDetails(instant).isPresent()) {
        HoodieCommitMetadata md = archived.readCommitMetadata(instant);
        line.put("recordsWritten", md.fetchTotalRecordsWritten());
      }
      out.println(JSON.writeValueAsString(line));
    }
  }

  /** Creates an empty Merge-on-Read table under {@code --dir} and runs every command on it once. */
  private static void warmup(Args args, PrintStream out) throws IOException {
    Path table = Files.createTempDirectory(Path.of(args.required("dir")), "warmup");
    HoodieTableMetaClient.newTableBuilder()
        .setTableType("MERGE_ON_READ")
        .setTableName("warmup")
        .setTableVersion(6)
        .setRecordKeyFields("id")
        .setTableCreateSchema("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}")
        .initTable(Hudi1Env.storageConf(Map.of()), table.toString());
    PrintStream discard = new PrintStream(java.io.OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    SnapshotRead.run(Args.parse(List.of("--table", table.toString()), Set.of()), discard);
    timeline(Args.parse(List.of("--table", table.toString()), Set.of()), discard);
    try (java.util.stream.Stream<Path> files = Files.walk(table)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    out.println("warm");
  }
}
