package dev.forage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle and sleeping worker counts kept for {@code PoolStatistics} only, by strategies whose protocol does not count
 * workers itself (Rayon's pre-RFC-5 module, EMPER); no decision reads them. Also the per-worker wake-up statistics
 * every strategy keeps the same way.
 */
final class IdleStatistics {
    private final AtomicInteger inactive = new AtomicInteger();
    private final AtomicInteger sleeping = new AtomicInteger();

    void startLooking() {
        inactive.incrementAndGet();
    }

    void stopLooking() {
        inactive.decrementAndGet();
    }

    void fellAsleep(WorkerStatistics stats) {
        stats.sleep();
        sleeping.incrementAndGet();
    }

    void wokeUp() {
        sleeping.decrementAndGet();
    }

    int sleepingThreads() {
        return sleeping.get();
    }

    int idleThreads() {
        return inactive.get() - sleeping.get();
    }

    /** After a block: count the wake-up and whether the latch caused it; the next search tells if it was useful. */
    static void countWakeUp(IdleState idle, CoreLatch latch, WorkerStatistics stats) {
        stats.wakeup();
        idle.justWoken = true;
        if (latch.probe()) {
            stats.latchWakeup();
        }
    }

    /** At the start of {@code noWorkFound}: a search right after a wake-up found nothing. */
    static void countUselessWakeUp(IdleState idle, IdleContext context) {
        if (idle.justWoken) {
            idle.justWoken = false;
            context.wakeupWithoutWork();
        }
    }
}
