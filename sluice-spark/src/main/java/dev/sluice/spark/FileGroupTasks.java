package dev.sluice.spark;

import dev.sluice.api.FileGroupTask;
import dev.sluice.api.FileWriteWire;
import dev.sluice.api.WireRecord;
import dev.sluice.api.WriteContext;
import dev.sluice.api.WriteToken;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import scala.Tuple2;

/** The Spark task that writes one planned file group. */
final class FileGroupTasks {
  private FileGroupTasks() {
  }

  /**
   * Writes {@code task} from {@code records} ({@link WireBytes}, in route key order: its updates, then its
   * inserts by key) under this task attempt's own write token ({@code partition-stage-attempt}), so a retry or a
   * speculative copy never collides with the files of another attempt.
   */
  static Iterator<FileWriteWire> write(WriteContext ctx, FileGroupTask task,
      Iterator<Tuple2<String, byte[]>> records) {
    TaskContext tc = TaskContext.get();
    WriteToken token = new WriteToken(task.index(), tc.stageId(), tc.taskAttemptId());
    Split split = new Split(records);
    return Units.of(ctx).write(task, split.updates(), split.inserts(), token).iterator();
  }

  /** One sorted stream as two: the updates (read first), then the inserts. */
  private static final class Split {
    private final Iterator<Tuple2<String, byte[]>> in;
    private Tuple2<String, byte[]> ahead;

    Split(Iterator<Tuple2<String, byte[]>> in) {
      this.in = in;
    }

    private Tuple2<String, byte[]> peek() {
      if (ahead == null && in.hasNext()) {
        ahead = in.next();
      }
      return ahead;
    }

    private WireRecord take() {
      WireRecord r = WireBytes.record(peek()._2());
      ahead = null;
      return r;
    }

    Iterator<WireRecord> updates() {
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return peek() != null && Routes.isUpdate(peek()._1());
        }

        @Override
        public WireRecord next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return take();
        }
      };
    }

    Iterator<WireRecord> inserts() {
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          // an update not read by then would be lost: the handles read all updates before the inserts
          return peek() != null;
        }

        @Override
        public WireRecord next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return take();
        }
      };
    }
  }
}
