package dev.sluice.tools.health;

import dev.sluice.api.TableType;
import java.util.Optional;

/**
 * Which table type suits the observed writes, and why.
 *
 * @param recommendation the table type recommended
 * @param current the table's type now
 * @param reason one paragraph with the figures behind the recommendation
 * @param basis {@code sample} if the sample decided, {@code history} if the recent commits did, {@code none} if there
 *     were no updates or deletes to judge by
 * @param history the recent commits' pattern
 * @param sample the sample's estimate, if a sample was given
 * @param breakEven the rewrite ratio from which Merge-on-Read is recommended ({@code sluice.health.advise.break.even})
 */
public record Advice(TableType recommendation, TableType current, String reason, String basis, WritePattern history,
    Optional<SampleEstimate> sample, double breakEven) {
}
