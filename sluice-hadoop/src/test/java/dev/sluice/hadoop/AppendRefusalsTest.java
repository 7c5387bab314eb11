package dev.sluice.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;

/** Which append failures are refusals a log writer rolls over on, and which are errors. */
class AppendRefusalsTest {
  @Test
  void theNameNodesLeaseRefusalsAreRecognizedByTheirServerSideClassName() {
    RemoteException held = new RemoteException(AppendRefusals.ALREADY_BEING_CREATED,
        "Failed to APPEND_FILE /t/p/.f_1.log.1_0-0-0 for DFSClient_2 on 127.0.0.1 because this file lease is currently"
            + " owned by DFSClient_1 on 127.0.0.1");
    RemoteException recovering = new RemoteException(AppendRefusals.RECOVERY_IN_PROGRESS,
        "Failed to APPEND_FILE /t/p/.f_1.log.1_0-0-0: lease recovery is in progress. Try again later.");
    assertTrue(AppendRefusals.reason(held).isPresent());
    assertTrue(AppendRefusals.reason(recovering).isPresent());
    // wrapped by a layer above the client
    assertTrue(AppendRefusals.reason(new IOException("append failed", held)).isPresent());
    assertTrue(AppendRefusals.reason(new IOException("append: lastBlock=blk_1 of src=/t/x is not sufficiently"
        + " replicated yet.")).isPresent());
  }

  @Test
  void otherFailuresAreNotRefusals() {
    assertEquals(Optional.empty(), AppendRefusals.reason(new IOException("Connection refused")));
    assertEquals(Optional.empty(), AppendRefusals.reason(new RemoteException(
        "org.apache.hadoop.hdfs.protocol.DSQuotaExceededException", "The DiskSpace quota is exceeded")));
    assertEquals(Optional.empty(), AppendRefusals.reason(new RemoteException(
        "org.apache.hadoop.security.AccessControlException", "Permission denied")));
  }
}
