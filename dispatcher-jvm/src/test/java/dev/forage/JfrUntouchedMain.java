package dev.forage;

import dev.forage.testing.Poll;

/**
 * Run in a fresh JVM by {@link JfrEventsTest}: a pool's workers run a job and wake without work while no
 * recording exists, then this prints {@code DONE} and the number of wake-ups without work. The test reads the
 * JVM's class-loading log to see whether Flight Recorder's metadata was set up along the way.
 */
public final class JfrUntouchedMain {
    private JfrUntouchedMain() {
    }

    public static void main(String[] args) throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
            pool.execute(ran::countDown);
            ran.await();
            for (int i = 0; i < 3; i++) {
                Pools.awaitAllAsleep(pool);
                long before = pool.statistics().wakeupsWithoutWork();
                ((JecSleep) pool.registry().sleep).wakeAnyThreads(1);
                Poll.until("a wake-up without work", () -> pool.statistics().wakeupsWithoutWork() > before,
                        pool::toString);
            }
            System.out.println("DONE " + pool.statistics().wakeupsWithoutWork());
        }
    }
}
