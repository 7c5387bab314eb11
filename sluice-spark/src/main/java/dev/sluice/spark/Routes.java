package dev.sluice.spark;

import dev.sluice.api.FileGroupKey;
import dev.sluice.api.FileGroupTask;
import dev.sluice.api.FileRef;
import dev.sluice.api.SluiceException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.Partitioner;

/**
 * Where each record of a planned write goes: an update to the task of its file group, an insert (by its rank in
 * (partition, key) order over the whole batch) to the task of its partition that takes that rank. Route keys sort
 * a task's records: its updates first, then its inserts by key.
 */
final class Routes implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final int DIGITS = 9;

  private final int[] taskOfFile;
  /** Per partition: its first insert's rank in the batch, and its tasks with the rank each one's inserts end at. */
  private final Map<String, long[][]> insertTasks;

  private Routes(int[] taskOfFile, Map<String, long[][]> insertTasks) {
    this.taskOfFile = taskOfFile;
    this.insertTasks = insertTasks;
  }

  static Routes of(List<FileGroupTask> tasks, List<FileRef> files, Map<String, Long> insertsByPartition) {
    Map<FileGroupKey, Integer> byGroup = new HashMap<>();
    tasks.forEach(t -> byGroup.put(t.fileGroup(), t.index()));
    int[] ofFile = new int[files.size()];
    for (int i = 0; i < files.size(); i++) {
      FileRef f = files.get(i);
      ofFile[i] = byGroup.getOrDefault(new FileGroupKey(f.partitionPath(), f.fileId()), -1);
    }
    // partitions in the order their inserts rank: the sorted map's order is the (partition, key) order's
    Map<String, long[][]> inserts = new HashMap<>();
    long offset = 0;
    for (Map.Entry<String, Long> e : insertsByPartition.entrySet()) {
      List<long[]> ends = new ArrayList<>();
      long end = offset;
      for (FileGroupTask t : tasks) {
        if (t.partitionPath().equals(e.getKey()) && t.inserts() > 0) {
          end += t.inserts();
          ends.add(new long[] {t.index(), end});
        }
      }
      if (end - offset != e.getValue()) {
        throw SluiceException.badRequest("The plan of partition '" + e.getKey() + "'",
            "it places " + (end - offset) + " of " + e.getValue() + " inserts", "Report this as a bug.");
      }
      inserts.put(e.getKey(), ends.toArray(new long[0][]));
      offset = end;
    }
    return new Routes(ofFile, inserts);
  }

  int taskOfFile(int file) {
    return taskOfFile[file];
  }

  int taskOfInsert(String partition, long rank) {
    for (long[] t : insertTasks.get(partition)) {
      if (rank < t[1]) {
        return (int) t[0];
      }
    }
    throw SluiceException.badRequest("Insert " + rank + " of partition '" + partition + "'", "no task takes it",
        "Report this as a bug.");
  }

  static String updateKey(int task, String key) {
    return routeKey(task, '0', key);
  }

  static String insertKey(int task, String key) {
    return routeKey(task, '1', key);
  }

  /** The task number zero-padded to {@link #DIGITS}, the kind, the key (built by hand: one per record). */
  private static String routeKey(int task, char kind, String key) {
    String n = Integer.toString(task);
    StringBuilder b = new StringBuilder(DIGITS + 1 + key.length());
    for (int i = n.length(); i < DIGITS; i++) {
      b.append('0');
    }
    return b.append(n).append(kind).append(key).toString();
  }

  static boolean isUpdate(String routeKey) {
    return routeKey.charAt(DIGITS) == '0';
  }

  /**
   * A bulk insert's routes: the inserts of each partition path cut into its new file groups' key ranges, in plan
   * order, at the shares the plan gives them (cuts estimated from a sample, so a file group may get a few more or
   * fewer records than planned; the create handle rolls over to another file group past the size limit).
   */
  static final class BulkRanges implements Serializable {
    private static final long serialVersionUID = 1L;
    private final Map<String, String[]> cuts;
    private final Map<String, int[]> tasks;

    private BulkRanges(Map<String, String[]> cuts, Map<String, int[]> tasks) {
      this.cuts = cuts;
      this.tasks = tasks;
    }

    static BulkRanges of(List<FileGroupTask> plan, List<BatchStats> stats) {
      Map<String, List<FileGroupTask>> byPath = new HashMap<>();
      for (FileGroupTask t : plan) {
        if (t.inserts() > 0) {
          byPath.computeIfAbsent(t.partitionPath(), p -> new ArrayList<>()).add(t);
        }
      }
      Map<String, String[]> cuts = new HashMap<>();
      Map<String, int[]> tasks = new HashMap<>();
      byPath.forEach((path, ts) -> {
        long total = ts.stream().mapToLong(FileGroupTask::inserts).sum();
        double[] fractions = new double[ts.size() - 1];
        long before = 0;
        for (int i = 0; i < fractions.length; i++) {
          before += ts.get(i).inserts();
          fractions[i] = (double) before / total;
        }
        cuts.put(path, BatchStats.cuts(stats, List.of(path), fractions));
        tasks.put(path, ts.stream().mapToInt(FileGroupTask::index).toArray());
      });
      return new BulkRanges(cuts, tasks);
    }

    /** The task whose key range holds {@code key} of partition {@code path}. */
    int taskOf(String path, String key) {
      int[] ts = tasks.get(path);
      if (ts == null) {
        throw SluiceException.badRequest("Insert '" + key + "' of partition '" + path + "'", "no task takes it",
            "Report this as a bug.");
      }
      return ts[Math.min(ts.length - 1, BatchStats.rangeOf(cuts.get(path), BatchStats.sortKey(path, key)))];
    }
  }

  /** Spark partition = the range of the ascending cuts the sort key falls in. */
  static final class CutPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final String[] cuts;

    CutPartitioner(String[] cuts) {
      this.cuts = cuts;
    }

    @Override
    public int numPartitions() {
      return cuts.length + 1;
    }

    @Override
    public int getPartition(Object key) {
      return BatchStats.rangeOf(cuts, (String) key);
    }
  }

  /** Spark partition = task index, read from the route key. */
  static final class TaskPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int tasks;

    TaskPartitioner(int tasks) {
      this.tasks = tasks;
    }

    @Override
    public int numPartitions() {
      return tasks;
    }

    @Override
    public int getPartition(Object key) {
      return Integer.parseInt(((String) key).substring(0, DIGITS));
    }
  }
}
