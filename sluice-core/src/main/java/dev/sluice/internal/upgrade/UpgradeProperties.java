package dev.sluice.internal.upgrade;

import dev.sluice.internal.table.TableConfig;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code hoodie.properties} changes of each version step, as Hudi 1.1.1's handlers make them
 * ({@code SevenToEightUpgradeHandler}, {@code EightToNineUpgradeHandler}, {@code NineToEightDowngradeHandler}), for
 * the payloads Sluice writes (the three built-in ones; any other payload class is a custom merge and kept as such).
 */
final class UpgradeProperties {
  /** {@code hoodie.table.legacy.payload.class} (1.1.0): the deprecated payload class a v9 table used before. */
  static final String LEGACY_PAYLOAD_CLASS = "hoodie.table.legacy.payload.class";
  /** {@code hoodie.table.partial.update.mode} (1.1.0). */
  static final String PARTIAL_UPDATE_MODE = "hoodie.table.partial.update.mode";
  /** {@code HoodieRecordMerger.PAYLOAD_BASED_MERGE_STRATEGY_UUID}. */
  static final String PAYLOAD_BASED_STRATEGY = "00000000-0000-0000-0000-000000000000";
  static final String EVENT_TIME_AVRO_PAYLOAD = "org.apache.hudi.common.model.EventTimeAvroPayload";

  private static final String EVENT_TIME = "EVENT_TIME_ORDERING";
  private static final String COMMIT_TIME = "COMMIT_TIME_ORDERING";
  private static final String CUSTOM = "CUSTOM";

  /** The built-in payloads a v9 table records as legacy ({@code PAYLOAD_CLASSES_TO_HANDLE}, those Sluice knows). */
  private static final Set<String> LEGACY_PAYLOADS = Set.of(TableConfig.DEFAULT_PAYLOAD_CLASS,
      TableConfig.EVENT_TIME_PAYLOAD_CLASS, EVENT_TIME_AVRO_PAYLOAD);

  private UpgradeProperties() {
  }

  /**
   * Version 6 to 8 ({@code SevenToEightUpgradeHandler}): layout 2 under {@code timeline}, the initial version 6, the
   * key generator's type beside its class, and the merge keys inferred from the payload (Merge-on-Read with an
   * ordering field is always event-time ordered).
   */
  static TableConfig sixToEight(TableConfig c) {
    TableConfig n = c.with(TableConfig.VERSION, "8").with(TableConfig.TIMELINE_LAYOUT_VERSION, "2")
        .with(TableConfig.TIMELINE_PATH, "timeline").with(TableConfig.INITIAL_VERSION, "6");
    Optional<String> payload = c.payloadClass().filter(p -> !p.isBlank());
    boolean ordered = c.precombineField().filter(f -> !f.isBlank()).isPresent();
    String mode;
    String payloadClass;
    String strategy;
    if (payload.isPresent() && !isBuiltIn(payload.get())) {
      mode = CUSTOM;
      payloadClass = payload.get();
      strategy = PAYLOAD_BASED_STRATEGY;
    } else if (c.type() == dev.sluice.api.TableType.MERGE_ON_READ && ordered
        || payload.filter(TableConfig.EVENT_TIME_PAYLOAD_CLASS::equals).isPresent()) {
      mode = EVENT_TIME;
      payloadClass = TableConfig.EVENT_TIME_PAYLOAD_CLASS;
      strategy = TableConfig.DEFAULT_MERGER_STRATEGY;
    } else {
      mode = COMMIT_TIME;
      payloadClass = TableConfig.DEFAULT_PAYLOAD_CLASS;
      strategy = TableConfig.COMMIT_TIME_MERGE_STRATEGY;
    }
    n = n.with(TableConfig.RECORD_MERGE_MODE, mode).with(TableConfig.PAYLOAD_CLASS, payloadClass)
        .with(TableConfig.RECORD_MERGE_STRATEGY_ID, strategy)
        // the strategy key's alternative, written with it by UpgradeDowngrade.run
        .with(TableConfig.RECORD_MERGER_STRATEGY, strategy);
    Optional<String> keyGen = c.keyGeneratorClass().filter(k -> !k.isBlank());
    if (keyGen.isPresent()) {
      Optional<String> type = TableConfig.keyGeneratorType(keyGen.get());
      n = n.with(TableConfig.KEY_GENERATOR_TYPE, type.orElse("USER_PROVIDED"));
    }
    return n;
  }

  /**
   * Version 8 to 9 ({@code EightToNineUpgradeHandler}): commit- and event-time tables drop the strategy id; a
   * built-in payload becomes {@code hoodie.table.legacy.payload.class}; the ordering field moves from
   * {@code hoodie.table.precombine.field} to {@code hoodie.table.ordering.fields}.
   */
  static TableConfig eightToNine(TableConfig c) {
    TableConfig n = c.with(TableConfig.VERSION, "9");
    String mode = c.get(TableConfig.RECORD_MERGE_MODE).orElse(EVENT_TIME);
    Optional<String> payload = c.payloadClass().filter(p -> !p.isBlank());
    if (!CUSTOM.equals(mode)) {
      n = n.without(TableConfig.RECORD_MERGE_STRATEGY_ID);
    }
    if (payload.isPresent() && LEGACY_PAYLOADS.contains(payload.get())) {
      n = n.with(LEGACY_PAYLOAD_CLASS, payload.get()).without(TableConfig.PAYLOAD_CLASS);
    }
    Optional<String> ordering = c.precombineField().filter(f -> !f.isBlank());
    if (ordering.isPresent()) {
      n = n.with(TableConfig.ORDERING_FIELDS, ordering.get()).without(TableConfig.PRECOMBINE_FIELD);
    }
    return n;
  }

  /**
   * Version 9 to 8 ({@code NineToEightDowngradeHandler}): the strategy id of the merge mode back, the legacy payload
   * back as the payload class, the ordering fields back as the precombine field, no partial update mode.
   */
  static TableConfig nineToEight(TableConfig c) {
    TableConfig n = c.with(TableConfig.VERSION, "8").without(PARTIAL_UPDATE_MODE);
    String mode = c.get(TableConfig.RECORD_MERGE_MODE).orElse("");
    if (EVENT_TIME.equals(mode)) {
      n = n.with(TableConfig.RECORD_MERGE_STRATEGY_ID, TableConfig.DEFAULT_MERGER_STRATEGY);
    } else if (COMMIT_TIME.equals(mode)) {
      n = n.with(TableConfig.RECORD_MERGE_STRATEGY_ID, TableConfig.COMMIT_TIME_MERGE_STRATEGY);
    }
    Optional<String> legacy = c.get(LEGACY_PAYLOAD_CLASS).filter(LEGACY_PAYLOADS::contains);
    if (legacy.isPresent()) {
      n = n.without(LEGACY_PAYLOAD_CLASS).with(TableConfig.PAYLOAD_CLASS, legacy.get());
    }
    Optional<String> ordering = c.get(TableConfig.ORDERING_FIELDS).filter(f -> !f.isBlank());
    if (ordering.isPresent()) {
      n = n.with(TableConfig.PRECOMBINE_FIELD, ordering.get()).without(TableConfig.ORDERING_FIELDS);
    }
    return n;
  }

  private static boolean isBuiltIn(String payload) {
    return LEGACY_PAYLOADS.contains(payload);
  }
}
