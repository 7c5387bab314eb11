package dev.sluice.internal.index;

import dev.sluice.internal.basefile.BaseFileReader;
import java.util.List;

/** Narrows the keys worth an exact check against one base file (bloom: key range then bloom probes). */
interface CandidateFilter {
  /**
   * The keys of {@code sortedKeys} that may be in the file read by {@code reader}; the exact check follows.
   * Returning {@code sortedKeys} itself means "check them all".
   */
  List<String> candidates(BaseFileReader reader, List<String> sortedKeys);
}
