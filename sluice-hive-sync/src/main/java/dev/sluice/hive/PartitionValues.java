package dev.sluice.hive;

import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;

/** Hive partition values of a Hudi partition path, by the extractor Hudi's key names. */
public final class PartitionValues {
  private static final String PACKAGE = "org.apache.hudi.hive.";

  /** Hudi's partition value extractors that Sluice knows, by the behaviour of each. */
  public enum Extractor {
    /** No partition values (a non-partitioned table). */
    NON_PARTITIONED("NonPartitionedExtractor"),
    /** The whole path is the one value, its slashes turned into dashes ({@code 2024/01/02} → {@code 2024-01-02}). */
    SINGLE_PART("SinglePartPartitionValueExtractor"),
    /** The one value after the {@code =} of a hive-style folder. */
    HIVE_STYLE("HiveStylePartitionValueExtractor"),
    /** One value per folder level, each after its {@code =} when there is one. */
    MULTI_PART("MultiPartKeysValueExtractor");

    private final String simpleName;

    Extractor(String simpleName) {
      this.simpleName = simpleName;
    }

    /** Hudi's class name, as the table property stores it. */
    public String className() {
      return PACKAGE + simpleName;
    }
  }

  private PartitionValues() {
  }

  /** The extractor Hudi 0.15 infers when none is configured. */
  static Extractor infer(List<String> partitionFields, boolean hiveStyle) {
    if (partitionFields.isEmpty()) {
      return Extractor.NON_PARTITIONED;
    }
    if (partitionFields.size() == 1) {
      return hiveStyle ? Extractor.HIVE_STYLE : Extractor.SINGLE_PART;
    }
    return Extractor.MULTI_PART;
  }

  /** The extractor named by its (Hudi) class name or simple name. */
  static Extractor named(String className) {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    for (Extractor e : Extractor.values()) {
      if (e.simpleName.equals(simple)) {
        return e;
      }
    }
    throw SluiceException.badConfig(ConfigKeys.HIVE_SYNC_PARTITION_EXTRACTOR.name(), className,
        "one of " + PACKAGE + "{MultiPartKeysValueExtractor, SinglePartPartitionValueExtractor, "
            + "HiveStylePartitionValueExtractor, NonPartitionedExtractor}");
  }

  /** The values of {@code partitionPath} ({@code ""} for a non-partitioned table: none). */
  static List<String> of(Extractor extractor, String partitionPath) {
    if (partitionPath.isEmpty() || extractor == Extractor.NON_PARTITIONED) {
      return List.of();
    }
    switch (extractor) {
      case SINGLE_PART:
        return List.of(partitionPath.replace('/', '-'));
      case HIVE_STYLE:
        if (partitionPath.split("=", -1).length != 2) {
          throw SluiceException.badConfig(ConfigKeys.HIVE_SYNC_PARTITION_EXTRACTOR.name(), extractor.className(),
              "an extractor that fits the partition path '" + partitionPath + "' (it is not one field=value folder)");
        }
        return List.of(afterEquals(partitionPath));
      default:
        List<String> out = new ArrayList<>();
        for (String level : partitionPath.split("/")) {
          out.add(afterEquals(level));
        }
        return List.copyOf(out);
    }
  }

  private static String afterEquals(String s) {
    int eq = s.indexOf('=');
    return eq < 0 ? s : s.substring(eq + 1);
  }
}
