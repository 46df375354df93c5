package dev.forage;

/**
 * What a sleep protocol needs from the worker that is going to sleep: implemented by {@link Worker}, the worker
 * as its protocol sees it while idle (and by the race tests' stand-ins, which drive a protocol apart from a pool).
 */
interface IdleContext {
    /** Park with no deadline. */
    long PARK_FOREVER = Long.MAX_VALUE;

    /**
     * The final check before blocking (S4 of docs/sleep.md section 3.3): is there a job in the injector or in any
     * worker's deque? Volatile reads of the injector and of every deque, made after the sleeper was counted. (Rayon's
     * sleep module checks the injector only; the deques make the same guarantee hold for internal jobs, docs/sleep.md
     * section 4.5.)
     */
    boolean hasQueuedJobs();

    /**
     * Called with the worker's sleep lock held, just before each block: how long to park. A worker that holds
     * (or now takes) the pool's timer watch gets the nanoseconds until the earliest timer, or a value &lt;= 0
     * when one is already due; every other worker gets {@link #PARK_FOREVER}. A worker waiting on a latch
     * with a deadline also gets at most the time left until that deadline.
     */
    long parkNanos();

    /**
     * A wake-up whose next search found no work: counts it ({@link WorkerStatistics#wakeupWithoutWork}) and reports
     * it to JFR when a recording wants it.
     */
    void wakeupWithoutWork();

    /** This worker's statistics, written only by this worker. */
    WorkerStatistics statistics();

    /**
     * A pause between two searches of an idle worker that must not sleep yet: {@link Thread#yield()}, or, on an IO
     * worker, a look at its own selector instead ({@code Worker.pause}). Speed only: a protocol's proofs never
     * count on what a pause does.
     */
    default void pause() {
        Thread.yield();
    }
}
