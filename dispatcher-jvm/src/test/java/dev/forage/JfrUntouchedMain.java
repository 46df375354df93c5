package dev.forage;

import java.util.concurrent.CountDownLatch;

/**
 * Run in a fresh JVM by {@link JfrEventsTest}: a pool's workers run a job and wake without work three times while
 * no recording exists, then this prints {@link #DONE}. The test reads the JVM's class-loading log to see whether
 * Flight Recorder's metadata was set up along the way.
 */
public final class JfrUntouchedMain {
    /** Printed once every wake-up without work was counted. */
    static final String DONE = "DONE: three wake-ups without work counted";

    private JfrUntouchedMain() {
    }

    public static void main(String[] args) throws Exception {
        try (ForagePool pool = Pools.pool(2)) {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            ran.await();
            for (int i = 0; i < 3; i++) {
                Pools.wakeOneWithoutWork(pool);
            }
            System.out.println(DONE);
        }
    }
}
