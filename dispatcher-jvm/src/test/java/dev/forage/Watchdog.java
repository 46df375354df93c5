package dev.forage;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Turns a hang into a failure with a thread dump: the body runs on its own thread, and if it has not finished
 * within the limit the test fails with the stack of every live thread (and whatever the caller's context says,
 * such as pool statistics). The hung body thread is interrupted and left behind as a daemon.
 */
final class Watchdog {
    /** Generous: the suite's bodies take well under a second each; only a hang comes near this. */
    static final Duration LIMIT = Duration.ofSeconds(Long.getLong("forage.watchdog.seconds", 60));

    interface Body {
        void run() throws Throwable;
    }

    private Watchdog() {
    }

    static void within(String what, Body body) throws Throwable {
        within(LIMIT, what, () -> "", body);
    }

    static void within(String what, Supplier<String> context, Body body) throws Throwable {
        within(LIMIT, what, context, body);
    }

    static void within(Duration limit, String what, Supplier<String> context, Body body) throws Throwable {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread runner = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "watched: " + what);
        runner.setDaemon(true);
        runner.start();
        runner.join(limit.toMillis());
        if (runner.isAlive()) {
            String dump = threadDump();
            String ctx;
            try {
                ctx = context.get();
            } catch (RuntimeException e) {
                ctx = "(context failed: " + e + ")";
            }
            runner.interrupt();
            fail(what + " did not finish within " + limit + " (a hang: lost wake-up or deadlock). " + ctx
                    + "\nThread dump:\n" + dump);
        }
        Throwable t = failure.get();
        if (t != null) {
            throw t;
        }
    }

    /** Polls {@code condition} until it holds; fails with {@code what} once {@code limit} has passed. */
    static void awaitCondition(String what, Duration limit, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + limit + " waiting until " + what + "; " + state.get());
            }
            LockSupport.parkNanos(50_000L); // a polling interval, not synchronization: the condition decides
        }
    }

    static String threadDump() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            sb.append('"').append(t.getName()).append("\" ").append(t.getState())
                    .append(t.isDaemon() ? " daemon" : "").append('\n');
            for (StackTraceElement frame : e.getValue()) {
                sb.append("    at ").append(frame).append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
