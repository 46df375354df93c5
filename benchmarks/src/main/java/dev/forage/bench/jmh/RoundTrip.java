package dev.forage.bench.jmh;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The wake-up benchmarks' operation: submit one job from the calling thread and park until it ran; and the
 * unmeasured pause before it, during which the pool's workers fall asleep (or retire).
 */
final class RoundTrip {
    private volatile Thread waiter;
    private volatile boolean ran;
    private final Runnable job = () -> {
        ran = true;
        LockSupport.unpark(waiter);
    };

    /** One job through {@code pool}, from submission until the caller saw it run. */
    boolean run(Executor pool) {
        waiter = Thread.currentThread();
        ran = false;
        pool.execute(job);
        while (!ran) {
            LockSupport.park(this);
        }
        return ran;
    }

    /** Stays away from the pool for {@code micros}, parked. */
    static void idle(long micros) {
        long end = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(micros);
        long now;
        while ((now = System.nanoTime()) - end < 0) {
            LockSupport.parkNanos(end - now);
        }
    }
}
