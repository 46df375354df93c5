package dev.forage.internal.sleep;

import dev.forage.internal.WorkerCounters;

/**
 * What a sleep strategy needs from the worker that is going to sleep. Implemented by the pool's worker.
 * <b>Internal</b>.
 */
public interface IdleContext {
    /** Park with no deadline. */
    long PARK_FOREVER = Long.MAX_VALUE;

    /**
     * The final check before blocking (seed 001): is there a job in the injector? Must be a volatile read of
     * the injector, made after the sleeper was counted.
     */
    boolean hasInjectedJobs();

    /**
     * Called with the worker's sleep lock held, just before each block: how long to park. A worker that holds
     * (or now takes) the pool's timer watch gets the nanoseconds until the earliest timer, or a value &lt;= 0
     * when one is already due; every other worker gets {@link #PARK_FOREVER}. A worker waiting on a latch
     * with a deadline also gets at most the time left until that deadline.
     */
    long parkNanos();

    /** This worker's statistics, written only by this worker. */
    WorkerCounters counters();
}
