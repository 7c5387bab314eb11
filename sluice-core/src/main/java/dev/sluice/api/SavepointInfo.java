package dev.sluice.api;

import java.util.List;
import java.util.Map;

/**
 * A savepoint.
 *
 * @param savepointedBy the user
 * @param savepointedAt epoch milliseconds of the savepoint
 * @param comments free text
 * @param partitionFiles partition path to the file names the savepoint keeps
 */
public record SavepointInfo(String savepointedBy, long savepointedAt, String comments,
    Map<String, List<String>> partitionFiles) {
}
