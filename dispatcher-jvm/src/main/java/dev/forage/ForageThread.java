package dev.forage;

/**
 * The thread class of a pool built without a custom thread factory. Knowing the class lets
 * {@link Worker#current()} find the running worker with one type check instead of a thread-local lookup.
 */
final class ForageThread extends Thread {
    /** Replaced while this thread drives a single-threaded pool ({@link Worker#bind}); this thread only. */
    Worker worker;

    ForageThread(Runnable main, Worker worker, String name) {
        super(main, name);
        this.worker = worker;
    }
}
