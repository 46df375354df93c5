package dev.forage;


/**
 * The {@link PoolProbe} of a one-worker pool inside a jcstress test: the only work there is the injector's, and
 * the caller is never a worker. Records whether a look (EMPER's last look before blocking, the spin phase's
 * checks) ever saw the job, so a test can tell which step found it.
 */
final class RaceProbe implements PoolProbe {
    private final Injector injector;
    /** Some look returned true. */
    boolean sawWork;
    /** Some look ran at all. */
    boolean looked;

    RaceProbe(Injector injector) {
        this.injector = injector;
    }

    @Override
    public int callingWorkerIndex() {
        return -1;
    }

    @Override
    public boolean hasVisibleWork() {
        looked = true;
        boolean any = !injector.isEmpty(); // a volatile read, as the pool's probe does
        if (any) {
            sawWork = true;
        }
        return any;
    }

    /** The pool's definition without timers or deques (these races have neither): a job is in the injector. */
    @Override
    public boolean hasUnclaimedWork() {
        return !injector.isEmpty();
    }
}
