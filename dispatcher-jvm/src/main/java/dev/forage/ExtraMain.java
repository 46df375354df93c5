package dev.forage;

/** What an extra slot's thread runs: {@link Compensation#runExtra}, then, after shutdown, the drain. */
final class ExtraMain extends LaunchedMain {
    private final ThreadedRunner runner;
    private final Compensation.Slot slot;

    ExtraMain(ThreadedRunner runner, Compensation.Slot slot) {
        this.runner = runner;
        this.slot = slot;
    }

    @Override
    void runLaunched() {
        Worker worker = slot.worker;
        Worker previous = Worker.bind(worker);
        worker.threadStarts();
        try {
            runner.hooks.started();
            if (runner.compensation.runExtra(slot)) {
                runner.ending.drain(worker);
                worker.busyEnds();
            }
        } finally {
            Worker.unbind(previous); // the slot may have a new thread already: the hook submits from outside
            runner.hooks.stopping();
            runner.ending.threadExited();
        }
    }

    @Override
    public String toString() {
        return slot.worker.toString();
    }
}
