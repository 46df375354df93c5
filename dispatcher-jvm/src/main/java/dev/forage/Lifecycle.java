package dev.forage;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One pool's life: running, shut down, terminated. Every face (the pool, its executors, its dispatchers) reads
 * the state from here, so they all tell the same story whichever face closed the pool.
 *
 * <p>Admission. An outside {@code execute} is admitted by the injector itself: shutdown {@linkplain
 * Injector#close() closes} it, and the push's claim CAS either comes before the close (the job is in the queue
 * the drain empties) or sees it and is refused; one CAS per submission, the one the push makes anyway. Other
 * outside submissions (timers) go through {@link #control}, which packs a SHUTDOWN bit with the number of them in
 * flight: such a submission {@linkplain #enter() enters} (increments), checks the bit, queues, and
 * {@linkplain #exit() exits}. Shutdown sets the bit, then closes the injector. A worker retires only once both
 * are done, no submission is in flight, and a full search found nothing, so an accepted job is never stranded.
 */
final class Lifecycle {
    private static final long SHUTDOWN = 1L << 62;

    private final String poolName;
    private final Injector injector;
    /** Padded: every timer scheduled from outside writes it twice. */
    private final PaddedAtomicLong control = new PaddedAtomicLong();
    private final LockLatch terminated = new LockLatch();
    /** {@link ForagePool#whenShutdown} actions not run yet. */
    private final CopyOnWriteArrayList<Runnable> shutdownActions = new CopyOnWriteArrayList<>();

    Lifecycle(String poolName, Injector injector) {
        this.poolName = poolName;
        this.injector = injector;
    }

    /**
     * An outside submission begins: counts it in flight, and throws if the pool is shut down. Every call that
     * returns normally must be paired with {@link #exit()}; one that throws counts nothing.
     */
    void enter(Object job) {
        long c = control.getAndIncrement();
        if ((c & SHUTDOWN) != 0) {
            control.getAndDecrement();
            throw rejected(job);
        }
    }

    /** The outside submission that {@link #enter} admitted has pushed its job (or given up). */
    void exit() {
        control.getAndDecrement();
    }

    boolean submissionsInFlight() {
        return (control.get() & ~SHUTDOWN) != 0;
    }

    /**
     * Sets the SHUTDOWN bit and closes the injector; true for the one call that set the bit. Every call closes
     * (idempotent), so no caller returns while an outside {@code execute} could still be accepted.
     */
    boolean startShutdown() {
        boolean first = setShutdownBit();
        injector.close();
        return first;
    }

    /** The first half of {@link #startShutdown}: the bit alone, the injector still open; true if this call set it. */
    boolean setShutdownBit() {
        boolean first = false;
        while (true) {
            long c = control.get();
            if ((c & SHUTDOWN) != 0) {
                break;
            }
            if (control.compareAndSet(c, c | SHUTDOWN)) {
                first = true;
                break;
            }
        }
        return first;
    }

    /**
     * Runs {@code action} once the pool is shut down: at once if it already is. Either this call or
     * {@link #runShutdownActions} runs it, never both: the shutdown sets the bit before it reads the list, and
     * this call adds to the list before it reads the bit, so at least one of them sees the other (both may, hence
     * the once-guard).
     */
    void whenShutdown(Runnable action, Thread.UncaughtExceptionHandler onFailure) {
        Runnable once = new Once(action, onFailure);
        shutdownActions.add(once);
        if (isShutdown()) {
            shutdownActions.remove(once);
            once.run();
        }
    }

    /** The shutdown that set the bit runs every registered action, in registration order. */
    void runShutdownActions() {
        for (Runnable action : shutdownActions) {
            action.run();
        }
        shutdownActions.clear();
    }

    /** Runs an action at most once; its failure goes to the handler, so the others still run. */
    private static final class Once implements Runnable {
        private final AtomicBoolean ran = new AtomicBoolean();
        private final Runnable action;
        private final Thread.UncaughtExceptionHandler onFailure;

        Once(Runnable action, Thread.UncaughtExceptionHandler onFailure) {
            this.action = action;
            this.onFailure = onFailure;
        }

        @Override
        public void run() {
            if (!ran.compareAndSet(false, true)) {
                return;
            }
            try {
                action.run();
            } catch (Throwable t) {
                onFailure.uncaughtException(Thread.currentThread(), t);
            }
        }
    }

    boolean isShutdown() {
        return (control.get() & SHUTDOWN) != 0;
    }

    boolean isTerminated() {
        return terminated.probe();
    }

    /** Every worker has finished: the pool has terminated. Idempotent. */
    void markTerminated() {
        terminated.set();
    }

    boolean awaitTerminated(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /** The exception every face throws for a submission after shutdown. */
    RejectedExecutionException rejected(Object job) {
        return new RejectedExecutionException("pool " + poolName + " is shut down, rejected " + TaskNames.brief(job)
                + "; allowed: jobs submitted before shutdown or close");
    }

    /** "running", "shut down" or "terminated". */
    String state() {
        return isTerminated() ? "terminated" : isShutdown() ? "shut down" : "running";
    }
}
