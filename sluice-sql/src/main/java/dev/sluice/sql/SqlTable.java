package dev.sluice.sql;

import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table under a SQL name: its views are {@code alias}, and for Merge-on-Read {@code alias_ro} and {@code alias_rt}.
 *
 * @param alias the name in SQL (letters, digits, '_')
 * @param table the open table (the caller closes it)
 * @param asOf time travel for this table alone: its snapshot and read-optimized views as of this instant (before
 *     {@link SqlOptions#asOf}, which applies to every table without one)
 */
public record SqlTable(String alias, Table table, Optional<String> asOf) {
  /** {@code ALIAS=PATH} with an optional {@code @INSTANT} (digits only, so a path may still hold an '@'). */
  private static final Pattern ARGUMENT = Pattern.compile("([^=]+)=(.+?)(?:@([0-9]{8,17}))?");

  /** Checks the parts are given. */
  public SqlTable {
    Objects.requireNonNull(alias, "alias");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(asOf, "asOf");
  }

  /** The table's latest state (or {@link SqlOptions#asOf}). */
  public SqlTable(String alias, Table table) {
    this(alias, table, Optional.empty());
  }

  /**
   * The command line's {@code --table} argument, before the table is opened.
   *
   * @param alias the name in SQL
   * @param location the table's path or URI
   * @param asOf the instant after {@code @}, if given
   */
  public record Argument(String alias, String location, Optional<String> asOf) {
    /**
     * Reads {@code ALIAS=PATH} or {@code ALIAS=PATH@INSTANT} (an instant of 8 to 17 digits, as the timeline writes
     * them, e.g. {@code trips=/data/trips@20261201000000}).
     */
    public static Argument parse(String text) {
      Matcher m = ARGUMENT.matcher(text);
      if (!m.matches()) {
        throw SluiceException.badInput("--table " + text, null, "not a table and its name",
            "ALIAS=PATH or ALIAS=PATH@INSTANT, e.g. --table trips=/data/trips@20261201000000");
      }
      return new Argument(m.group(1), m.group(2), Optional.ofNullable(m.group(3)));
    }
  }
}
