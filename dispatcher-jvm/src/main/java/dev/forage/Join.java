package dev.forage;

/**
 * {@link ForagePool#join} on a worker of the pool (Rayon's {@code join_context}): push {@code b} where thieves can
 * take it, run {@code a}, then take {@code b} back and run it inline, or, if it was stolen, run other jobs until
 * its latch is set.
 */
final class Join {
    private Join() {
    }

    static <A, B> JoinResult<A, B> onWorker(Worker w, Computation<A> a, Computation<B> b) {
        SpinLatch latchB = new SpinLatch(w.registry, w.index); // set by a thief of our own pool
        StackJob<B> jobB = new StackJob<>(b, latchB);
        w.push(jobB);
        A resultA = null;
        Throwable failureA = null;
        try {
            resultA = a.compute();
        } catch (Throwable t) {
            failureA = t;
        }
        // Usually nobody stole b and it is on top of our deque: take it back and run it here, without its latch
        // (Rayon's run_inline). Everything else, a theft or jobs pushed above b, is the out-of-line slow path,
        // which keeps this method small for the JIT: it is inlined into the caller's recursion, and the less it
        // holds, the less a rare branch met late throws away: a branch the compiler never saw taken is compiled
        // as a trap, and when a steal first takes it, the whole inlined recursion is deoptimized and recompiled.
        if (!latchB.probe()) {
            Runnable job = w.takeBack();
            if (job == jobB) {
                jobB.runInline();
                w.counters.jobRun();
            } else {
                awaitJob(w, jobB, latchB, job);
            }
        }
        if (failureA != null) {
            Throwable failureB = jobB.failure();
            if (failureB != null && failureB != failureA) {
                failureA.addSuppressed(failureB);
            }
            throw Sneaky.rethrow(failureA);
        }
        return new JoinResult<>(resultA, jobB.resultOrThrow());
    }

    /**
     * The slow end of a join: {@code job} (from our own deque, or null) is not {@code jobB}. Runs our own jobs
     * until it meets {@code jobB} (then runs it here) or finds none (then waits on b's latch, running other
     * workers' jobs meanwhile), or until b's latch is set by the thief that ran it.
     */
    private static void awaitJob(Worker w, StackJob<?> jobB, SpinLatch latchB, Runnable job) {
        while (true) {
            if (job == null) {
                w.waitUntil(latchB, Worker.NO_DEADLINE);
                return;
            }
            if (job == jobB) {
                jobB.runInline();
                w.counters.jobRun();
                return;
            }
            w.runJob(job);
            if (latchB.probe()) {
                return;
            }
            job = w.takeBack();
        }
    }
}
