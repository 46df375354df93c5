package dev.forage;

/**
 * A latch owned by a pool worker, which keeps running other jobs while it waits (Rayon's {@code SpinLatch}).
 * Used by {@code join}, by a worker's terminate latch, and by any wait of a worker.
 */
class SpinLatch extends CoreLatch {
    private final LatchWaker waker;
    private final int ownerIndex;

    public SpinLatch(LatchWaker waker, int ownerIndex) {
        this.waker = waker;
        this.ownerIndex = ownerIndex;
    }

    public final int ownerIndex() {
        return ownerIndex;
    }

    @Override
    public void set() {
        // Read the fields before publishing SET: once set, the owner may return and reuse this latch.
        LatchWaker w = waker;
        int owner = ownerIndex;
        if (setCore()) {
            w.notifyWorkerLatchIsSet(owner);
        }
    }

    @Override
    public void setAndWake() {
        LatchWaker w = waker;
        int owner = ownerIndex;
        setCore();
        w.notifyWorkerLatchIsSet(owner);
    }
}
