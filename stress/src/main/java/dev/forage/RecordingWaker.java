package dev.forage;


/**
 * The waker of the latch races: passes a latch setter's wake-up on to the strategy under test and records that
 * it was called (the setter saw SLEEPING). Written by the setter actor, read by the arbiter, which jcstress runs
 * after both actors, so a plain field is enough.
 */
final class RecordingWaker implements LatchWaker {
    private final LatchWaker strategy;
    boolean called;

    RecordingWaker(LatchWaker strategy) {
        this.strategy = strategy;
    }

    @Override
    public void notifyWorkerLatchIsSet(int workerIndex) {
        called = true;
        strategy.notifyWorkerLatchIsSet(workerIndex);
    }
}
