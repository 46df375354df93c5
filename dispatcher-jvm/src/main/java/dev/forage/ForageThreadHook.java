package dev.forage;

/**
 * Code that runs on each of a pool's threads as it starts or as it ends (Tokio's {@code on_thread_start} and
 * {@code on_thread_stop}): the place for thread-local setup and teardown, a thread's own metrics, or a native
 * library's per-thread attach. Set with {@link ForagePoolBuilder#onThreadStart} and
 * {@link ForagePoolBuilder#onThreadStop}.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .onThreadStart(thread -> Tracing.attach(thread.getName()))
 *         .onThreadStop(thread -> Tracing.detach())
 *         .build();
 * }</pre>
 *
 * <p>Each call runs on the thread it names ({@code thread == Thread.currentThread()}), for every thread that runs
 * the pool's jobs: a worker's thread, again each time a worker that retired after its keep-alive gets a new thread,
 * and each stand-in thread of a blocking section. The start hook runs before the thread runs any job; the stop hook
 * after its last job, before the pool counts the thread ended, so once {@code awaitTermination} returns true the
 * stop hook of every thread that ran at shutdown has run (a thread that retired earlier and was replaced runs its
 * own as it leaves, unawaited). In the stop hook the thread is no longer one of the pool's workers: what it
 * submits is queued as from outside. The pool's monitor thread runs no jobs and no hooks; a single-threaded pool has no threads.
 * An exception from a hook goes to the pool's uncaught-exception handler, and the thread carries on as if the hook
 * had returned.
 */
public interface ForageThreadHook {
    /** Runs on {@code thread}, the current thread. */
    void run(Thread thread);
}
