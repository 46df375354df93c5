package dev.forage;

/** A pool probe for tests that drive a strategy without a pool: answers what the test sets. */
public final class TestProbe implements PoolProbe {
    public volatile int callingWorker = -1;
    public volatile boolean visibleWork;
    public volatile boolean unclaimedWork;

    @Override
    public int callingWorkerIndex() {
        return callingWorker;
    }

    @Override
    public boolean hasVisibleWork() {
        return visibleWork;
    }

    @Override
    public boolean hasUnclaimedWork() {
        return unclaimedWork;
    }
}
