package dev.forage;

import java.util.concurrent.TimeUnit;

/** Run in a fresh JVM: a non-daemon pool, a timer scheduled far out and cancelled, then main returns. */
public final class CancelledTimerMain {
    public static final String DONE = "cancelled; main returns";

    public static void main(String[] args) throws Exception {
        // Both keep-alives short: a stand-in for a job the monitor saw blocked at start-up must not be what keeps
        // the JVM alive here.
        ForagePool pool = ForagePool.builder().threads(2).daemon(false).keepAlive(200, TimeUnit.MILLISECONDS)
                .blockingKeepAlive(200, TimeUnit.MILLISECONDS).name("cancelled-timer").build();
        TimerHandle timer = pool.schedule(() -> { }, 10, TimeUnit.MINUTES);
        PoolTimers timers = pool.registry().timers;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (timers.watcher() == TimerQueue.NO_WATCHER && System.nanoTime() < deadline) {
            Thread.yield(); // until a sleeping worker holds the watch: the case that kept the JVM alive
        }
        if (!timer.cancel()) {
            throw new AssertionError("the timer could not be cancelled");
        }
        System.out.println(DONE);
    }
}
