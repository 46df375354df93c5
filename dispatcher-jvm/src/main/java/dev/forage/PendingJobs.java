package dev.forage;

/**
 * {@link ForagePool#runPending()}: whether a thread that is no worker may run the pool's queued jobs itself. In a
 * single-threaded pool (the caller-runs mode) it is how they run at all; in a pool with worker threads they run
 * there, and the call is refused ({@link RunByWorkers}).
 */
interface PendingJobs {
    /** Runs the queued jobs, and the jobs they queue, on the calling thread until none is left; returns how many. */
    int runPending();

    /** A pool with worker threads: its workers run queued jobs, and a caller asking to is told to wait instead. */
    final class RunByWorkers implements PendingJobs {
        private final String poolName;
        private final int threads;

        RunByWorkers(String poolName, int threads) {
            this.poolName = poolName;
            this.threads = threads;
        }

        @Override
        public int runPending() {
            throw new IllegalStateException("runPending() is for single-threaded pools (ForagePool.builder()"
                    + ".singleThreaded()); pool " + poolName + " has " + threads + " worker threads that run "
                    + "its jobs");
        }
    }
}
