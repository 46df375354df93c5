package dev.forage;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The program {@link QueueCapacityTest} runs in a JVM of its own with a small heap: a job that spawns two children
 * forever, as a user writes it by mistake. Prints {@code REJECTED <message>} and exits 0 when the pool refuses a
 * spawn before the heap is gone, then stops spawning and closes the pool. Arguments: threads, and {@code shared}
 * (one job object pushed again and again: only the queues grow) or {@code distinct} (a new child object each time).
 */
public final class RunawaySpawner implements Runnable {
    private static final AtomicReference<RejectedExecutionException> REJECTED = new AtomicReference<>();
    private static final CountDownLatch FIRST_REJECTION = new CountDownLatch(1);
    private static volatile boolean stop;

    private final ForagePool pool;
    private final boolean distinct;
    private final long generation;

    private RunawaySpawner(ForagePool pool, boolean distinct, long generation) {
        this.pool = pool;
        this.distinct = distinct;
        this.generation = generation;
    }

    @Override
    public void run() {
        for (int child = 0; child < 2 && !stop; child++) {
            try {
                pool.execute(distinct ? new RunawaySpawner(pool, true, generation + 1) : this);
            } catch (RejectedExecutionException e) {
                if (REJECTED.compareAndSet(null, e)) {
                    FIRST_REJECTION.countDown();
                }
                return;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        boolean distinct = args[1].equals("distinct");
        ForagePool pool = ForagePool.builder().threads(threads).name("runaway").build();
        pool.execute(new RunawaySpawner(pool, distinct, 0));
        if (!FIRST_REJECTION.await(5, TimeUnit.MINUTES)) {
            System.out.println("NO REJECTION " + pool);
            System.exit(2);
        }
        stop = true; // the queued jobs now run without spawning, and the pool drains
        pool.close();
        System.out.println("REJECTED " + REJECTED.get().getMessage());
        System.out.println("TERMINATED " + pool.isTerminated());
    }
}
