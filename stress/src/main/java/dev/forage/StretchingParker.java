package dev.forage;

/**
 * A {@link ThreadParker} whose every bounded park asks for {@code stretchNanos} instead, so that a race test can
 * make a nap last a second, far longer than the race, although a pool's nap stops at a millisecond
 * ({@link Tunable#NAP_NANOS}). A park that ran its whole length is then a wake-up lost, not a nap that ended.
 */
final class StretchingParker extends Parker {
    private final ThreadParker inner = new ThreadParker();
    private final long stretchNanos;

    StretchingParker(long stretchNanos) {
        this.stretchNanos = stretchNanos;
    }

    @Override
    public void bindCurrentThread() {
        inner.bindCurrentThread();
    }

    @Override
    public void park(long nanos) {
        inner.park(nanos == FOREVER ? FOREVER : stretchNanos);
    }

    @Override
    public void unpark() {
        inner.unpark();
    }

    @Override
    public boolean eventsFound() {
        return inner.eventsFound();
    }
}
