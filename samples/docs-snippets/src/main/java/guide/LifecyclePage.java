package guide;

import dev.forage.ForagePool;
import dev.forage.QueueFullPolicy;

/** The Java blocks of docs/lifecycle.md, each in a method that returns what it made. */
public final class LifecyclePage {
    private LifecyclePage() {
    }

    /** The pool, at parallelism 2. */
    public static ForagePool resize() {
        ForagePool pool = ForagePool.builder().threads(4).maxParallelism(16).build();
        pool.setParallelism(12);   // returns 4: eight more workers start now and take queued work
        pool.setParallelism(2);    // returns 12: ten finish the job in hand and end their threads
        return pool;
    }

    public static ForagePool threadHooks() {
        ForagePool pool = ForagePool.builder()
                .onThreadStart(thread -> Tracing.attach(thread.getName()))
                .onThreadStop(thread -> Tracing.detach())
                .build();
        return pool;
    }

    public static ForagePool queueCapacity() {
        ForagePool pool = ForagePool.builder()
                .queueCapacity(10_000)                       // 1 to 2^22 jobs
                .whenQueueFull(QueueFullPolicy.CALLER_RUNS)  // default REJECT
                .build();
        return pool;
    }
}
