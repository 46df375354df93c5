package dev.forage;

/**
 * marl's spin-for-work phase, in front of any sleep protocol. Selected with
 * {@code SleepProtocol.MARL_SPIN} or {@code ForagePoolBuilder.spinForWorkNanos}.
 *
 * <p>When a worker's search first fails in an idle spell, it spins for up to {@code spinNanos} before the inner
 * strategy sees anything: it looks for visible work {@link Tunable#SPIN_CHECKS_PER_YIELD} times (marl's loop that
 * checks its queue between {@code nop}s), then yields the thread (marl's {@code yield}), then returns so that the
 * worker searches again, which steals from every other worker starting at a random one (marl steals from one
 * random worker). It returns at once when work is visible or its latch is set. Once the time is spent, every
 * further failure goes to the inner strategy, which rounds, gets sleepy and sleeps as usual; the spin comes back
 * in the next idle spell.
 *
 * <p>Correctness is the inner strategy's: the spin phase only delays the inner strategy's first
 * {@code noWorkFound}, and every strategy's proof holds for any number of failed searches before it.
 */
final class SpinForWork implements Sleep {
    private static final byte NOT_STARTED = 0;
    private static final byte SPINNING = 1;
    private static final byte DONE = 2;

    private final Sleep inner;
    private final PoolProbe probe;
    private final long spinNanos;
    private final int checksPerYield;
    // Indexed by worker; each slot is read and written only by its worker's thread.
    private final byte[] phase;
    private final long[] spinUntil;

    /**
     * In front of {@code inner}, for {@code threads} workers: spins {@code spinNanos} (more than 0) per idle spell,
     * with {@link Tunable#SPIN_CHECKS_PER_YIELD} looks for work between two yields.
     */
    SpinForWork(Sleep inner, Tuning tuning, int threads, long spinNanos, PoolProbe probe) {
        if (inner == null || probe == null) {
            throw new NullPointerException("SpinForWork needs an inner strategy and the pool's probe");
        }
        if (spinNanos <= 0) {
            throw new IllegalArgumentException("spinNanos must be > 0 (0 means no spin phase), was " + spinNanos);
        }
        this.inner = inner;
        this.probe = probe;
        this.spinNanos = spinNanos;
        this.checksPerYield = tuning.getInt(Tunable.SPIN_CHECKS_PER_YIELD);
        this.phase = new byte[threads];
        this.spinUntil = new long[threads];
    }

    @Override
    public IdleState startLooking(int workerIndex) {
        phase[workerIndex] = NOT_STARTED;
        return inner.startLooking(workerIndex);
    }

    @Override
    public void workFound(IdleState idle) {
        inner.workFound(idle);
    }

    @Override
    public void noWorkFound(IdleState idle, CoreLatch latch, IdleContext context) {
        int i = idle.workerIndex;
        if (phase[i] != DONE) {
            long now = System.nanoTime();
            if (phase[i] == NOT_STARTED) {
                phase[i] = SPINNING;
                spinUntil[i] = now + spinNanos;
            }
            if (now - spinUntil[i] < 0) {
                spinOnce(latch);
                return;
            }
            phase[i] = DONE;
        }
        inner.noWorkFound(idle, latch, context);
    }

    private void spinOnce(CoreLatch latch) {
        for (int k = 0; k < checksPerYield; k++) {
            if (latch.probe() || probe.hasVisibleWork()) {
                return; // the worker's next search takes it
            }
        }
        Thread.yield();
    }

    @Override
    public void newInternalJobs(int count, boolean queueWasEmpty) {
        inner.newInternalJobs(count, queueWasEmpty);
    }

    @Override
    public void newInjectedJobs(int count, boolean queueWasEmpty) {
        inner.newInjectedJobs(count, queueWasEmpty);
    }

    @Override
    public boolean pausesBesideProducers() {
        return inner.pausesBesideProducers();
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        inner.notifyWorkerLatchIsSet(workerIndex);
    }

    @Override
    public void timerDeadlineChanged(int watcherIndex) {
        inner.timerDeadlineChanged(watcherIndex);
    }

    @Override
    public int sleepingThreads() {
        return inner.sleepingThreads();
    }

    @Override
    public int idleThreads() {
        return inner.idleThreads();
    }

    /** The strategy behind the spin phase. */
    public Sleep inner() {
        return inner;
    }

    @Override
    public String toString() {
        return "SpinForWork{" + spinNanos + "ns, " + inner + "}";
    }
}
