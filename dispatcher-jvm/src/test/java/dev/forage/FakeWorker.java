package dev.forage;


/**
 * A worker's side of a sleep strategy without a pool: its idle state, latch and counters, and a loop of failed
 * searches. The pool side (who is calling, what is visible) is the {@link Probe}.
 */
final class FakeWorker implements IdleContext {
    final Sleep sleep;
    final int index;
    final SpinLatch latch;
    final WorkerStatistics counters = new WorkerStatistics();
    IdleState idle;

    FakeWorker(Sleep sleep, int index) {
        this.sleep = sleep;
        this.index = index;
        this.latch = new SpinLatch(sleep, index);
    }

    void startLooking() {
        idle = sleep.startLooking(index);
    }

    void noWorkFound() {
        sleep.noWorkFound(idle, latch, this);
    }

    /** Fails searches until the strategy has blocked this worker and something woke it (or its latch is set). */
    void searchUntilWokenOnce() {
        long before = counters.get(PoolCounter.WAKEUPS);
        while (counters.get(PoolCounter.WAKEUPS) == before && !latch.probe()) {
            noWorkFound();
        }
    }

    Thread startThread(Runnable body) {
        Thread t = new Thread(body, "fake-worker-" + index);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public boolean hasQueuedJobs() {
        return false;
    }

    @Override
    public long parkNanos() {
        return PARK_FOREVER;
    }

    @Override
    public void wakeupWithoutWork() {
        statistics().wakeupWithoutWork();
    }

    @Override
    public WorkerStatistics statistics() {
        return counters;
    }
}
