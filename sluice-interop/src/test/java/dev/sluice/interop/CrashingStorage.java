package dev.sluice.interop;

import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.InterceptedStorage.Call;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.storage.Storage;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Simulates a writer process dying: passes calls on until the first publish (create, exclusive create or rename
 * onto) of a path matching the trigger, then refuses every call, so nothing (no clean-up either) reaches storage
 * afterwards, as after a crash. {@link #storage()} is the storage to hand to the writer.
 */
final class CrashingStorage implements InterceptedStorage.Interceptor {
  private static final Set<Op> PUBLISHING = EnumSet.of(Op.CREATE, Op.CREATE_EXCLUSIVE, Op.RENAME);

  private final Storage storage;
  private final Predicate<String> crashOnPublish;
  private volatile boolean crashed;

  CrashingStorage(Storage delegate, Predicate<String> crashOnPublish) {
    this.storage = new InterceptedStorage(delegate, this);
    this.crashOnPublish = crashOnPublish;
  }

  /** The storage that dies at the trigger. */
  Storage storage() {
    return storage;
  }

  /** Whether the simulated crash happened. */
  boolean crashed() {
    return crashed;
  }

  @Override
  public void before(Call call) {
    if (!crashed && PUBLISHING.contains(call.op()) && crashOnPublish.test(call.path())) {
      crashed = true;
    }
    if (crashed) {
      throw new IllegalStateException("the writer process is dead (" + call + ")");
    }
  }

  @Override
  public boolean passesClose(Call call) {
    return !crashed;
  }
}
