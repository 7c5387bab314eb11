package dev.sluice.hive;

import dev.sluice.api.SluiceException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.EnvironmentContext;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A connection to a Hive Metastore's Thrift API (binary protocol, no SASL: a metastore without Kerberos). Every
 * failure becomes a {@link SluiceException} naming the metastore URI and what was asked.
 */
final class Metastore implements AutoCloseable {
  /** Connect and read timeout: a metastore that does not answer fails the sync instead of hanging the write. */
  static final int TIMEOUT_MILLIS = 20_000;

  private final String uri;
  private final TTransport transport;
  private final ThriftHiveMetastore.Client client;

  private Metastore(String uri, TTransport transport) {
    this.uri = uri;
    this.transport = transport;
    this.client = new ThriftHiveMetastore.Client(new TBinaryProtocol(transport));
  }

  /** Connects to the first of {@code uris} that answers. */
  static Metastore connect(List<String> uris) {
    List<String> failures = new ArrayList<>();
    for (String u : uris) {
      URI parsed;
      try {
        parsed = URI.create(u);
      } catch (IllegalArgumentException e) {
        throw SluiceException.badConfig("hoodie.datasource.hive_sync.metastore.uris", u, "thrift://HOST:PORT");
      }
      if (!"thrift".equals(parsed.getScheme()) || parsed.getHost() == null || parsed.getPort() < 0) {
        throw SluiceException.badConfig("hoodie.datasource.hive_sync.metastore.uris", u, "thrift://HOST:PORT");
      }
      TSocket socket = new TSocket(parsed.getHost(), parsed.getPort(), TIMEOUT_MILLIS);
      try {
        socket.open();
        return new Metastore(u, socket);
      } catch (TTransportException e) {
        failures.add(u + " (" + rootMessage(e) + ")");
      }
    }
    throw SluiceException.storage("connect to the Hive Metastore at", String.join(", ", failures),
        new java.io.IOException("no metastore answered"));
  }

  String uri() {
    return uri;
  }

  Optional<Database> database(String name) {
    try {
      return Optional.of(client.get_database(name));
    } catch (NoSuchObjectException e) {
      return Optional.empty();
    } catch (TException e) {
      throw failed("read database " + name, e);
    }
  }

  void createDatabase(String name) {
    Database db = new Database();
    db.setName(name);
    db.setDescription("created by Sluice's Hive sync");
    try {
      client.create_database(db);
    } catch (TException e) {
      throw failed("create database " + name, e);
    }
  }

  Optional<Table> table(String db, String name) {
    try {
      return Optional.of(client.get_table(db, name));
    } catch (NoSuchObjectException e) {
      return Optional.empty();
    } catch (TException e) {
      throw failed("read table " + db + "." + name, e);
    }
  }

  void createTable(Table t) {
    try {
      client.create_table(t);
    } catch (TException e) {
      throw failed("create table " + t.getDbName() + "." + t.getTableName(), e);
    }
  }

  /** Alters a table; {@code cascade}: the column change reaches its partitions too. */
  void alterTable(Table t, boolean cascade) {
    EnvironmentContext ctx = new EnvironmentContext();
    if (cascade) {
      ctx.putToProperties("CASCADE", "true");
    }
    try {
      client.alter_table_with_environment_context(t.getDbName(), t.getTableName(), t, ctx);
    } catch (TException e) {
      throw failed("alter table " + t.getDbName() + "." + t.getTableName(), e);
    }
  }

  List<Partition> partitions(String db, String table) {
    try {
      return client.get_partitions(db, table, (short) -1);
    } catch (TException e) {
      throw failed("list the partitions of " + db + "." + table, e);
    }
  }

  void addPartitions(List<Partition> parts) {
    if (parts.isEmpty()) {
      return;
    }
    try {
      client.add_partitions(parts);
    } catch (TException e) {
      throw failed("add " + parts.size() + " partitions to " + parts.get(0).getDbName() + "."
          + parts.get(0).getTableName(), e);
    }
  }

  void alterPartition(Partition p) {
    try {
      client.alter_partition(p.getDbName(), p.getTableName(), p);
    } catch (TException e) {
      throw failed("alter partition " + p.getValues() + " of " + p.getDbName() + "." + p.getTableName(), e);
    }
  }

  /** Drops a partition's definition; its files are the table's and stay. */
  void dropPartition(String db, String table, List<String> values) {
    try {
      client.drop_partition(db, table, values, false);
    } catch (NoSuchObjectException e) {
      // already gone: the state the sync wants
    } catch (TException e) {
      throw failed("drop partition " + values + " of " + db + "." + table, e);
    }
  }

  private SluiceException failed(String what, TException e) {
    return SluiceException.storage(what + " in the Hive Metastore at", uri + " (" + rootMessage(e) + ")",
        new java.io.IOException(e));
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
  }

  @Override
  public void close() {
    transport.close();
  }
}
