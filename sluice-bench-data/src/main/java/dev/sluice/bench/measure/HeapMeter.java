package dev.sluice.bench.measure;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap use during a step, from the JVM's own GC notifications: the heap in use when a collection starts is the
 * high point since the previous one, so the largest of those (and of the use at the end) is the step's peak heap;
 * the largest heap left after a collection is the peak live set (what the step really had to hold).
 * Collections that started before {@link #start()} do not count.
 */
public final class HeapMeter implements NotificationListener {
  private final AtomicLong peakUsed = new AtomicLong();
  private final AtomicLong peakLive = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final Map<String, Long> countAtStart = new ConcurrentHashMap<>();
  private volatile boolean running;

  /** Starts listening (after a full collection, so earlier garbage does not count). */
  public void start() {
    System.gc();
    peakUsed.set(heapUsed());
    peakLive.set(heapUsed());
    collections.set(0);
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      countAtStart.put(gc.getName(), gc.getCollectionCount());
      if (gc instanceof NotificationEmitter e) {
        e.addNotificationListener(this, null, null);
        emitters.add(e);
      }
    }
    running = true;
  }

  /** Stops listening; the peaks include the heap in use now. */
  public void stop() {
    running = false;
    long now = heapUsed();
    peakUsed.accumulateAndGet(now, Math::max);
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(this);
      } catch (ListenerNotFoundException e) {
        throw new IllegalStateException("GC listener vanished", e);
      }
    }
    emitters.clear();
  }

  /** Largest heap in use seen (bytes). */
  public long peakUsed() {
    return peakUsed.get();
  }

  /** Largest heap left after a collection (bytes); the heap at start if no collection ran. */
  public long peakLive() {
    return peakLive.get();
  }

  /** Collections seen. */
  public long collections() {
    return collections.get();
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (!running || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
        (CompositeData) notification.getUserData());
    // notifications arrive late: one about a collection from before start() (the System.gc() there) is skipped
    if (info.getGcInfo().getId() <= countAtStart.getOrDefault(info.getGcName(), 0L)) {
      return;
    }
    collections.incrementAndGet();
    peakUsed.accumulateAndGet(heapSum(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
    peakLive.accumulateAndGet(heapSum(info.getGcInfo().getMemoryUsageAfterGc()), Math::max);
  }

  private static long heapSum(Map<String, MemoryUsage> pools) {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        MemoryUsage u = pools.get(pool.getName());
        if (u != null) {
          sum += u.getUsed();
        }
      }
    }
    return sum;
  }

  private static long heapUsed() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
