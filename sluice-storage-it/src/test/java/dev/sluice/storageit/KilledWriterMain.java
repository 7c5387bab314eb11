package dev.sluice.storageit;

import static dev.sluice.api.TripFixture.it;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.api.TripFixture;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

/**
 * A writer process for {@link HdfsKilledWriterProcessTest}: upserts {@link #batch()} into the table at
 * {@code args[1]} (settings as {@code key=value} in the rest) and, once it is in the middle of a data file
 * ({@code args[0]}: {@code base} for a Parquet file, {@code log} for a log file), prints {@value #READY} and blocks
 * there until it is killed.
 */
public final class KilledWriterMain {
  /** Printed on stdout when the writer is mid data file. */
  public static final String READY = "MID-WRITE";

  private KilledWriterMain() {
  }

  /** The batch the writer upserts: 30 new trips and an update. */
  static List<GenericRecord> batch() {
    List<GenericRecord> b = new ArrayList<>(TripFixture.trips(30, 30, 3, 2));
    b.add(TripFixture.trip("id-000001", 5, "p1", "lost", 0));
    return b;
  }

  /** Runs the writer. */
  public static void main(String[] args) {
    boolean log = args[0].equals("log");
    String location = args[1];
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    int[] dataWrites = {0};
    RecordingStorage storage = new RecordingStorage(RemoteTables.storage(location, settings))
        // a write, flush or sync into the data file: the second one is after bytes reached the stream, before its close
        .hangAt(c -> (c.op() == Op.WRITE || c.op() == Op.FLUSH || c.op() == Op.SYNC)
            && (log ? c.path().contains(".log.") : c.path().endsWith(".parquet"))
            && ++dataWrites[0] == 2, () -> {
          System.out.println(READY);
          System.out.flush();
        });
    Table t = Tables.open(storage.storage(), location, RemoteTables.options(settings));
    t.upsert(it(batch()));
    System.out.println("the writer was not killed");
  }
}
