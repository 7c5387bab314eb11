package dev.sluice.internal.write;

import dev.sluice.api.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind a write's {@link WriteOutcome}, bumped where each thing happens (preparing, tagging, the
 * handles, which run in parallel: hence adders). Counters only: nothing per record is kept.
 */
final class OutcomeCounts {
  final LongAdder received = new LongAdder();
  final LongAdder combined = new LongAdder();
  final LongAdder olderThanStored = new LongAdder();
  final LongAdder deletesNotFound = new LongAdder();
  final LongAdder deletesWithoutPartition = new LongAdder();

  /** The counts as the public value. */
  WriteOutcome outcome(Optional<String> orderingField) {
    return new WriteOutcome(received.sum(), combined.sum(), olderThanStored.sum(), deletesNotFound.sum(),
        deletesWithoutPartition.sum(), orderingField);
  }
}
