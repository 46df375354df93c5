package dev.forage;

/**
 * A pool's {@link ForageThreadHook}s, called by the threads themselves ({@code ThreadedRunner}'s worker main and
 * {@link ExtraMain}): the start hook before the thread's first job, the stop hook before its exit is counted. A
 * hook's exception goes to the pool's handler and never ends the thread.
 */
final class ThreadHooks {
    private final Registry registry;
    private final ForageThreadHook start;
    private final ForageThreadHook stop;

    ThreadHooks(Registry registry, PoolSettings settings) {
        this.registry = registry;
        this.start = settings.onThreadStart;
        this.stop = settings.onThreadStop;
    }

    void started() {
        run(start);
    }

    void stopping() {
        run(stop);
    }

    private void run(ForageThreadHook hook) {
        if (hook == null) {
            return;
        }
        Thread thread = Thread.currentThread();
        try {
            hook.run(thread);
        } catch (Throwable e) {
            registry.handleUncaught(thread, e);
        }
    }
}
