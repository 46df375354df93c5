package dev.forage;

import java.util.List;

/**
 * A pool's timers without a dedicated timer thread: scheduled jobs wait in a {@link TimerQueue}, and due ones move
 * to the injector as new injected jobs. Whoever looks fires them: a sleeping worker that holds the timer
 * <em>watch</em> parks only until the earliest deadline, a busy worker checks every
 * {@link Tunable#TIMER_CHECK_INTERVAL} jobs, every full search checks once ({@code docs/sleep.md}, "Timers"), and
 * while no worker watches, the pool's monitor fires them on time ({@link PoolWatch}, {@code docs/monitor.md}).
 */
final class PoolTimers {
    private final TimerQueue queue = new TimerQueue();
    private final Pool pool;
    private final Injector injector;
    private final Clock clock;
    private final Lifecycle lifecycle;
    private final Sleep sleep;

    PoolTimers(Pool pool, Injector injector, Clock clock, Lifecycle lifecycle, Sleep sleep) {
        this.pool = pool;
        this.injector = injector;
        this.clock = clock;
        this.lifecycle = lifecycle;
        this.sleep = sleep;
    }

    /** Schedules {@code job} to run once {@code delayNanos} of the pool's clock passed. Any thread. */
    TimerTask schedule(Runnable job, long delayNanos) {
        return schedule(job, delayNanos, false);
    }

    /**
     * {@link #schedule}; {@code inline}: the job needs no worker, and the monitor runs it itself when it fires it
     * ({@link TimerTask#inline}).
     */
    TimerTask schedule(Runnable job, long delayNanos, boolean inline) {
        lifecycle.enter(job);
        try {
            long now = clock.nanoTime();
            long delay = Math.max(delayNanos, 0L);
            long deadline = now + delay;
            if (deadline - now < 0 || deadline == TimerQueue.NO_DEADLINE) {
                deadline = now + (Long.MAX_VALUE >> 1); // saturate: about 146 years
            }
            TimerTask task = new PoolTimer(this, job, deadline, inline);
            if (queue.add(task)) {
                int watcher = queue.watcher();
                if (watcher != TimerQueue.NO_WATCHER) {
                    sleep.timerDeadlineChanged(watcher);
                } else {
                    // Nobody watches the timers: the same rule as an injected job finds a worker for them, and
                    // the monitor, which covers them while every worker is busy, must not sleep past this one.
                    pool.timersUnwatched(deadline);
                }
            }
            return task;
        } finally {
            lifecycle.exit();
        }
    }

    /** Moves every due timer to the injector; they are new injected jobs. Any thread. */
    void fireDue() {
        List<TimerTask> due = queue.pollExpired(clock);
        if (due == null) {
            return;
        }
        boolean wasEmpty = injector.isEmpty();
        for (TimerTask t : due) {
            injector.push(t);
        }
        pool.newInjectedJobs(due.size(), wasEmpty);
    }

    /**
     * Worker {@code index}, about to block: takes the watch if timers are pending, and returns how long to park
     * for them: until the earliest deadline (zero or less when one is due), or {@link Parker#FOREVER} when this
     * worker does not watch.
     */
    long watchNanos(int index) {
        long earliest = queue.watch(index);
        if (earliest == TimerQueue.NO_DEADLINE) {
            return Parker.FOREVER;
        }
        return Math.max(earliest - clock.nanoTime(), 0L);
    }

    /**
     * A worker that held the watch became busy: let a sleeper take the watch over, and the monitor cover the
     * timers until one does (if none sleeps, the monitor fires them on time).
     */
    void handOverWatch(int index) {
        if (queue.watcher() == index && queue.releaseWatch(index) && !queue.isEmpty()) {
            pool.timersUnwatched(queue.earliestDeadline());
        }
    }

    /**
     * The monitor fires the due timers nobody watched: a job that needs no worker runs here, on the monitor's
     * thread, as the JDK's delayer thread runs {@code orTimeout}'s; every other one is queued on the injector as a
     * new injected job, on time, and runs as soon as a worker is free.
     */
    void fireDueOnMonitor() {
        List<TimerTask> due = queue.pollExpired(clock);
        if (due == null) {
            return;
        }
        boolean wasEmpty = injector.isEmpty();
        int queued = 0;
        for (TimerTask t : due) {
            if (!t.inline) {
                injector.push(t);
                queued++;
            }
        }
        if (queued > 0) {
            pool.newInjectedJobs(queued, wasEmpty);
        }
        for (TimerTask t : due) {
            if (t.inline) {
                try {
                    t.run();
                } catch (Throwable e) {
                    pool.handleUncaught(Thread.currentThread(), e);
                }
            }
        }
    }

    /** Pending timers exist and no worker watches them: work a poster may have left to an idle worker. */
    boolean unwatched() {
        return !queue.isEmpty() && queue.watcher() == TimerQueue.NO_WATCHER;
    }

    /** A timer is due now. */
    boolean anyDue() {
        long due = queue.earliestDeadline();
        return due != TimerQueue.NO_DEADLINE && due - clock.nanoTime() <= 0;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** The earliest pending deadline, or {@link TimerQueue#NO_DEADLINE}. */
    long earliestDeadline() {
        return queue.earliestDeadline();
    }

    /** Timers pending now: neither fired nor cancelled. */
    int size() {
        return queue.size();
    }

    /** The worker holding the watch, or {@link TimerQueue#NO_WATCHER}; for tests. */
    int watcher() {
        return queue.watcher();
    }

    /** Removes and returns the timers that never fired ({@code shutdownNow}). */
    List<TimerTask> drainPending() {
        return queue.drainPending();
    }

    /**
     * A timer was cancelled. After shutdown the last worker may be parked only to fire pending timers; once none
     * is left it must look again and retire, or termination would wait for a deadline that no longer exists.
     */
    private void cancelled(int watcher) {
        // The last timer went (else the watcher wakes at the old earliest deadline at worst, and re-reads): a
        // watcher parked until its deadline would outstay the keep-alive (and, for a non-daemon pool, keep the
        // JVM alive). It re-reads its deadline now, finds none, and parks for the keep-alive instead
        // (TimerQueue.remove and watch: C1, C2 against W1, W2).
        if (watcher != TimerQueue.NO_WATCHER) {
            sleep.timerDeadlineChanged(watcher);
        }
        if (lifecycle.isShutdown() && queue.isEmpty()) {
            pool.lastTimerCancelled();
        }
    }

    /** The pool's timers: cancelling one tells the pool. */
    private static final class PoolTimer extends TimerTask {
        private final PoolTimers timers;

        PoolTimer(PoolTimers timers, Runnable job, long deadlineNanos, boolean inline) {
            super(job, deadlineNanos, inline);
            this.timers = timers;
        }

        @Override
        void removed(int watcher) {
            timers.cancelled(watcher);
        }
    }

    /**
     * What the timers tell the pool they belong to ({@link Registry}): due timers are injected jobs to post, a timer
     * nobody watches is the monitor's, the end of the last timer after shutdown may let a worker retire, and an
     * inline action's failure goes where a job's would.
     */
    interface Pool {
        /** {@link Sleep#newInjectedJobs}, with what every post of the pool adds. */
        void newInjectedJobs(int count, boolean queueWasEmpty);

        /**
         * No worker watches the timers: a sleeper must take the watch (an injected job's post, but no job waits
         * for the monitor to look at), and the monitor, which covers the timers while every worker is busy, must
         * not sleep past {@code deadline} ({@link TimerQueue#NO_DEADLINE}: the queue emptied meanwhile).
         */
        void timersUnwatched(long deadline);

        void lastTimerCancelled();

        void handleUncaught(Thread thread, Throwable error);
    }
}
