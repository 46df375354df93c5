package dev.forage;

/**
 * A computation whose result and failure are kept for the one thread that waits for it on {@link #latch}
 * (Rayon's {@code StackJob}): the second half of a {@code join}, or the body of an {@code install}.
 */
final class StackJob<T> extends WaitedJob implements TaskWrapper {
    private final Computation<T> computation;
    final Latch latch;
    // Plain fields: written before latch.set() (a volatile write) and read after latch.probe() saw SET, or
    // written and read by the same thread (runInline).
    private T result;
    private Throwable failure;

    StackJob(Computation<T> computation, Latch latch) {
        this.computation = computation;
        this.latch = latch;
    }

    @Override
    public void run() {
        runInline();
        // Hazard: after set() the waiter may return and drop this job; nothing may follow it.
        latch.set();
    }

    /**
     * Runs the computation and keeps its result or failure, without setting the latch. Called directly by the
     * waiting thread when it took the job back before anyone stole it: nobody else waits, and it reads the
     * result right after.
     */
    void runInline() {
        try {
            result = computation.compute();
        } catch (Throwable t) {
            failure = t;
        }
    }

    /**
     * Before the latch is set, {@code cause} is the failure (the computation may have finished, but its waiter
     * has not seen it, so it may as well see the reason it was not told). Once set, the waiter may already have
     * read the outcome: only the wake-up that {@code set} may have been cut short of is repeated.
     */
    @Override
    boolean abandon(Throwable cause) {
        boolean recorded = false;
        if (!latch.probe()) {
            failure = cause;
            recorded = true;
        }
        latch.setAndWake();
        return recorded;
    }

    /** The failure, or null. Only after the latch is set or {@link #runInline} returned. */
    Throwable failure() {
        return failure;
    }

    /** The result, or the failure rethrown unchanged. Only after the latch is set or {@link #runInline} returned. */
    T resultOrThrow() {
        if (failure != null) {
            throw Sneaky.rethrow(failure);
        }
        return result;
    }

    @Override
    public Object wrappedTask() {
        return computation;
    }

    @Override
    public String toString() {
        return "StackJob[" + computation + "]";
    }
}
