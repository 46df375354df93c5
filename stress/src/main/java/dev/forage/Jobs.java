package dev.forage;

/** Distinct jobs for the deque races, and the small integers the results record for them. */
final class Jobs {
    static final Runnable A = () -> { };
    static final Runnable B = () -> { };

    static final int NONE = 0;
    static final int GOT_A = 1;
    static final int GOT_B = 2;
    static final int RETRY = 3;

    private Jobs() {
    }

    /** null: 0, A: 1, B: 2, {@link WorkDeque#RETRY}: 3. */
    static int code(Runnable job) {
        if (job == null) {
            return NONE;
        }
        if (job == A) {
            return GOT_A;
        }
        if (job == B) {
            return GOT_B;
        }
        if (job == WorkDeque.RETRY) {
            return RETRY;
        }
        throw new IllegalStateException("a job that was never pushed: " + job);
    }

    /** {@link #drain} found the deque corrupt: a lone steal lost a race against nobody. */
    static final int CORRUPT = -1;

    /**
     * Single-threaded (arbiter): how many jobs are still in the deque, taking them out; {@link #CORRUPT} when a
     * steal with no concurrent taker returns RETRY (the indices claim a job whose slot was already cleared).
     */
    static int drain(WorkDeque deque) {
        int left = 0;
        while (true) {
            Runnable job = deque.steal();
            if (job == null) {
                return left;
            }
            if (job == WorkDeque.RETRY) {
                return CORRUPT;
            }
            left++;
        }
    }
}
