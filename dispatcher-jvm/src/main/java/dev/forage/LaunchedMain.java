package dev.forage;

/**
 * What a pool thread runs, once the pool {@linkplain #launch launched} it. A thread factory may hand back a thread
 * it started itself; that thread runs this before the pool has checked it (and refused it), and must not run a
 * worker: unlaunched, {@link #run} returns at once, so nothing of the pool runs on it.
 */
abstract class LaunchedMain implements Runnable {
    private volatile boolean launched;

    /** Starts {@code t}, a new, unstarted thread made for this. */
    final void launch(Thread t) {
        launched = true;
        t.start();
    }

    @Override
    public final void run() {
        if (launched) {
            runLaunched();
        }
    }

    /** The thread's work: a worker's loop, or an extra slot's. */
    abstract void runLaunched();
}
