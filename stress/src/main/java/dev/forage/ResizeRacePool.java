package dev.forage;

/**
 * The pool side of the resize races ({@link Resize.Pool}): no shutdown, no queued work, and a thread start that
 * is only counted. {@link Resize} calls {@link #startThread} under its monitor, from the resizing actor; the arbiter
 * reads the count after both actors, so a plain field is enough.
 */
final class ResizeRacePool implements Resize.Pool {
    int started;

    /** A {@link Resize} over {@code retirement}, with {@code parallelism} of {@code max} workers in use. */
    Resize resize(Retirement retirement, int parallelism, int max) {
        return new Resize(this, retirement, index -> { }, parallelism, max, false);
    }

    @Override
    public String name() {
        return "resize-race";
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean workLeft() {
        return false;
    }

    @Override
    public void post() {
    }

    @Override
    public void raiseSlotsInUse(int slots) {
    }

    @Override
    public void startThread(int index) {
        started++;
    }

    @Override
    public void liveWorkers(int delta) {
    }
}
