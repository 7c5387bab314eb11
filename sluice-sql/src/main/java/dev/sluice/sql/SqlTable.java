package dev.sluice.sql;

import dev.sluice.api.Table;
import java.util.Objects;

/**
 * A table under a SQL name: its views are {@code alias}, and for Merge-on-Read {@code alias_ro} and {@code alias_rt}.
 *
 * @param alias the name in SQL (letters, digits, '_')
 * @param table the open table (the caller closes it)
 */
public record SqlTable(String alias, Table table) {
  /** Checks the parts are given. */
  public SqlTable {
    Objects.requireNonNull(alias, "alias");
    Objects.requireNonNull(table, "table");
  }
}
