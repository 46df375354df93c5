package dev.forage;

import java.util.concurrent.CountDownLatch;

/**
 * Run in a fresh JVM by {@link FaultToleranceTest}: a job fails on a pool whose uncaught-exception handler throws
 * too; then this prints {@link #DONE}. The test reads what reached System.err.
 */
public final class ThrowingHandlerMain {
    static final String DONE = "DONE: the handler was called";
    static final String JOB_FAILURE = "the job's own failure";
    static final String HANDLER_FAILURE = "the handler's own failure";

    private ThrowingHandlerMain() {
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch called = new CountDownLatch(1);
        try (ForagePool pool = ForagePool.builder().threads(1).name("throwing-handler")
                .uncaughtExceptionHandler((t, e) -> {
                    called.countDown();
                    throw new IllegalStateException(HANDLER_FAILURE);
                }).build()) {
            pool.execute(() -> {
                throw new UnsupportedOperationException(JOB_FAILURE);
            });
            called.await();
        } // close() waits for the worker, so what it printed is out before DONE
        System.out.println(DONE);
    }
}
