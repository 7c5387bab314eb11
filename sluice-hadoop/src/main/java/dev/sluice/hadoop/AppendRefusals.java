package dev.sluice.hadoop;

import java.util.Optional;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Recognizes the NameNode's refusals of an append to one file that a writer gets around by writing a new file
 * (the cases Hudi 0.15's log writer rolls over on). The NameNode's exceptions reach the client as
 * {@link RemoteException}s carrying the server-side class name, so they are matched by name: no HDFS classes are
 * needed on the class path.
 */
final class AppendRefusals {
  /** Another client holds the file's lease: alive, or dead and not yet past the lease's soft limit. */
  static final String ALREADY_BEING_CREATED = "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException";
  /** The lease of a dead client is being recovered; the file is closed once its last block is settled. */
  static final String RECOVERY_IN_PROGRESS = "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException";
  /** HDFS-6325: the last block has no live replica to append to (e.g. its datanodes are being decommissioned). */
  static final String NOT_REPLICATED = "not sufficiently replicated yet";

  private AppendRefusals() {
  }

  /** Why the append failed with {@code e}, if the store refused it for one of those reasons; else empty. */
  static Optional<String> reason(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String name = t instanceof RemoteException re ? re.getClassName() : t.getClass().getName();
      if (ALREADY_BEING_CREATED.equals(name)) {
        return Optional.of("the file is leased to another client");
      }
      if (RECOVERY_IN_PROGRESS.equals(name)) {
        return Optional.of("the lease of the file's last writer is being recovered");
      }
      if (String.valueOf(t.getMessage()).contains(NOT_REPLICATED)) {
        return Optional.of("its last block has no live replica to append to");
      }
    }
    return Optional.empty();
  }
}
