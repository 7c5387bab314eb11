package dev.sluice.internal.key;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds complex record keys that Hudi's encoding ({@code f1:v1,f2:v2,...}, {@code __null__} for null and
 * {@code __empty__} for an empty value) cannot tell apart from another key. The field names are fixed and in order,
 * and contain neither {@code ,} nor {@code :}, so an encoded key is read back by choosing where each separator
 * {@code ,fk:} (k = 2..n) stands. Two different tuples of values encode alike exactly when
 * <ul>
 *   <li>a value is literally {@code __null__} or {@code __empty__}: it reads back as null or empty, another tuple
 *       (unless that tuple has no value at all, which no write accepts); or</li>
 *   <li>the separators can be placed differently, every piece still non-empty: a value holds the text
 *       {@code ,fk:} of a later field k with the separators in between placeable as well (a value holding
 *       {@code ,fk:} of an earlier or its own field, or a comma or colon in any other form, is harmless).</li>
 * </ul>
 * Only those tuples are refused; everything else keeps Hudi's encoding unchanged.
 */
final class ComplexKeys {
  static final String NULL_KEY = "__null__";
  static final String EMPTY_KEY = "__empty__";

  private ComplexKeys() {
  }

  /** A collision: the other tuple that encodes alike, and the field whose value causes it. */
  record Collision(List<String> other, int field) {
  }

  /** True when the values need the full check (the cheap test on every key of a write). */
  static boolean suspicious(String[] values) {
    for (String v : values) {
      if (v != null && (v.indexOf(',') >= 0 || v.equals(NULL_KEY) || v.equals(EMPTY_KEY))) {
        return true;
      }
    }
    return false;
  }

  /** The encoding of one value. */
  static String encode(String v) {
    return v == null ? NULL_KEY : v.isEmpty() ? EMPTY_KEY : v;
  }

  /** Another tuple whose encoding equals that of {@code values} ({@code encoded}), if there is one. */
  static Optional<Collision> collision(List<String> names, String[] values, String encoded) {
    int n = names.size();
    int[] truth = new int[n];
    int at = names.get(0).length() + 1;
    for (int k = 1; k < n; k++) {
      at += encode(values[k - 1]).length();
      truth[k] = at;
      at += names.get(k).length() + 2;
    }
    // a literal placeholder reads back as null or empty: the same split gives another tuple
    for (int k = 0; k < n; k++) {
      if (NULL_KEY.equals(values[k]) || EMPTY_KEY.equals(values[k])) {
        List<String> other = decode(names, encoded, truth);
        if (other.stream().anyMatch(v -> v != null && !v.isEmpty())) {
          return Optional.of(new Collision(other, k));
        }
      }
    }
    List<int[]> occurrences = new ArrayList<>();
    occurrences.add(new int[0]);
    for (int k = 1; k < n; k++) {
      occurrences.add(occurrencesOf(encoded, "," + names.get(k) + ":"));
    }
    int[] split = new int[n];
    Search s = new Search(names, encoded, occurrences, truth, split);
    if (!s.find(1, names.get(0).length() + 1, false, false)) {
      return Optional.empty();
    }
    int firstMoved = 1;
    while (split[firstMoved] == truth[firstMoved]) {
      firstMoved++;
    }
    // the moved separator lies inside one given value: the one that starts before it and ends after it
    int holder = 0;
    while (holder + 1 < n && truth[holder + 1] <= split[firstMoved]) {
      holder++;
    }
    return Optional.of(new Collision(decode(names, encoded, split), holder));
  }

  private static int[] occurrencesOf(String s, String token) {
    List<Integer> out = new ArrayList<>();
    for (int i = s.indexOf(token); i >= 0; i = s.indexOf(token, i + 1)) {
      out.add(i);
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static List<String> decode(List<String> names, String encoded, int[] split) {
    List<String> out = new ArrayList<>();
    for (int k = 0; k < names.size(); k++) {
      int start = k == 0 ? names.get(0).length() + 1 : split[k] + names.get(k).length() + 2;
      int end = k + 1 < names.size() ? split[k + 1] : encoded.length();
      String piece = encoded.substring(start, end);
      out.add(piece.equals(NULL_KEY) ? null : piece.equals(EMPTY_KEY) ? "" : piece);
    }
    return out;
  }

  /**
   * Depth-first search for a placement of the separators other than the true one, every piece non-empty and at
   * least one not a placeholder. States that failed are remembered, so the search is polynomial in the number of
   * separator occurrences.
   */
  private static final class Search {
    private final List<String> names;
    private final String encoded;
    private final List<int[]> occurrences;
    private final int[] truth;
    private final int[] split;
    private final Set<List<Object>> failed = new HashSet<>();

    Search(List<String> names, String encoded, List<int[]> occurrences, int[] truth, int[] split) {
      this.names = names;
      this.encoded = encoded;
      this.occurrences = occurrences;
      this.truth = truth;
      this.split = split;
    }

    /** Places separators k.. with the previous piece starting at {@code pieceStart}. */
    boolean find(int k, int pieceStart, boolean moved, boolean hasValue) {
      if (k == names.size()) {
        return moved && encoded.length() > pieceStart && (hasValue || isValue(encoded.substring(pieceStart)));
      }
      List<Object> state = List.of(k, pieceStart, moved, hasValue);
      if (failed.contains(state)) {
        return false;
      }
      for (int q : occurrences.get(k)) {
        if (q <= pieceStart) {
          continue;
        }
        split[k] = q;
        boolean value = hasValue || isValue(encoded.substring(pieceStart, q));
        if (find(k + 1, q + names.get(k).length() + 2, moved || q != truth[k], value)) {
          return true;
        }
      }
      failed.add(state);
      return false;
    }

    private static boolean isValue(String piece) {
      return !piece.isEmpty() && !piece.equals(NULL_KEY) && !piece.equals(EMPTY_KEY);
    }
  }

  /** For messages: the tuple as {@code a="x", b=null}. */
  static String shown(List<String> names, List<String> values) {
    List<String> parts = new ArrayList<>();
    for (int k = 0; k < names.size(); k++) {
      String v = values.get(k);
      parts.add(names.get(k) + "=" + (v == null ? "null" : PartitionPaths.shown(v)));
    }
    return String.join(", ", parts);
  }
}
