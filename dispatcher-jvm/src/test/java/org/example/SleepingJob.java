package org.example;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A user's job that blocks in {@code Thread.sleep} without {@code managedBlock}, in a package of its own because the
 * blocked-job event names the innermost frame outside the JDK, Kotlin and Forage ({@code dev.forage.*}).
 */
public final class SleepingJob implements Runnable {
    public final CountDownLatch started = new CountDownLatch(1);

    @Override
    public void run() {
        started.countDown();
        try {
            Thread.sleep(TimeUnit.MINUTES.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test's shutdownNow ends the sleep
        }
    }
}
