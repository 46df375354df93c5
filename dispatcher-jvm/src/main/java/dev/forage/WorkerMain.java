package dev.forage;

/**
 * What a core worker's thread runs ({@link ThreadedRunner}): the worker loop, waiting at the top level on the
 * worker's stop latch, until shutdown (then the drain), the keep-alive ({@link Retirement}) or a shrink
 * ({@link Resize}) ends the thread. A new thread after a retirement or a grow runs a new one of these.
 */
final class WorkerMain extends LaunchedMain {
    private final ThreadedRunner runner;
    private final Worker worker;

    WorkerMain(ThreadedRunner runner, Worker worker) {
        this.runner = runner;
        this.worker = worker;
    }

    @Override
    void runLaunched() {
        Registry registry = runner.registry;
        Resize resize = runner.resize;
        int index = worker.index;
        Worker previous = InWorker.bind(worker);
        worker.busyStarts();
        registry.monitor.workerBusy();
        runner.hooks.started();
        worker.retireAfterNanos = registry.io.workersMayRetire() ? runner.workerKeepAliveNanos : 0L;
        // The thread ended while the worker lives on (retired, or shed by a shrink): shutdown counts it out.
        boolean left = false;
        try {
            while (true) {
                SpinLatch stop = resize.topLevelLatch(index); // X1
                if (registry.lifecycle.isShutdown()) { // X2, with inUse below
                    break;
                }
                if (!resize.inUse(index)) {
                    // Above the parallelism: the latch ended the wait (or this thread began after the shrink).
                    worker.busyEnds();
                    if (resize.leave(index)) {
                        left = true;
                        return;
                    }
                    worker.busyStarts();
                    continue;
                }
                if (!worker.waitUntil(stop, Worker.NO_DEADLINE)) {
                    // Idle for the keep-alive, and no longer counted idle.
                    worker.busyEnds();
                    if (resize.retire(index)) {
                        left = true;
                        return;
                    }
                    worker.busyStarts();
                }
                // The latch is set (shutdown or a shrink), or the thread stays after all: the top decides.
            }
            // Pending IO waits fail now; the jobs that their failure resumes are accepted, and drained below.
            registry.io.workerStopped(worker);
            runner.ending.drainAndRetire(worker);
            worker.busyEnds();
        } finally {
            // Unbound first: a retired or shed worker may have a new thread already, the only one that may push on
            // its deque, so what the hook submits goes in from outside.
            InWorker.unbind(previous);
            runner.hooks.stopping();
            if (!left) {
                runner.ending.coreThreadExited();
            }
        }
    }

    @Override
    public String toString() {
        return worker.toString();
    }
}
