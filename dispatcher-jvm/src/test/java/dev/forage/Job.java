package dev.forage;

/** A numbered job for queue tests: results compare by number. */
final class Job implements Runnable {
    final int id;

    Job(int id) {
        this.id = id;
    }

    static int idOf(Runnable r) {
        return ((Job) r).id;
    }

    @Override
    public void run() {
    }

    @Override
    public String toString() {
        return "Job" + id;
    }
}
