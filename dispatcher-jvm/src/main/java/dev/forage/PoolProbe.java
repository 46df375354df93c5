package dev.forage;

/**
 * What a sleep strategy may ask of its pool besides the five events: which worker is calling, and whether work
 * is visible anywhere. Implemented by the pool and handed to a strategy when it is built.
 */
interface PoolProbe {
    /** The index of the calling thread's worker in this pool, or -1 when the caller is not one of its workers. */
    int callingWorkerIndex();

    /**
     * A look that takes nothing: true if a job is visible in the injector or in any worker's deque, or a timer
     * is due. Volatile reads only, so the answer may be stale by the time it returns. Used by two comparison
     * baselines: marl's spin phase ({@code SpinForWork}) and EMPER's check after counting itself as a sleeper
     * ({@code EmperSleep}).
     */
    boolean hasVisibleWork();

    /**
     * True if the injector or any worker's deque holds a job, or timers are pending and no worker watches them:
     * work that a poster may have left to an idle worker ({@code JecSleep.workFound}'s hand-off rule). Volatile
     * reads only (two per deque), so the answer may be stale by the time it returns.
     */
    boolean hasUnclaimedWork();
}
