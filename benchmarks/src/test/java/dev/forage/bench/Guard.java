package dev.forage.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A watchdog for the tests that run pools: the body runs on its own thread; if it has not finished within the
 * budget the test fails with a dump of every thread, so a hang (a lost wake-up) becomes a readable failure. The
 * budget catches hangs, not slowness: tests never assert on time.
 */
final class Guard {
    private Guard() {
    }

    interface Body {
        void run() throws Exception;
    }

    static void within(int seconds, String what, Body body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "guarded-" + what);
        t.setDaemon(true);
        t.start();
        t.join(seconds * 1000L);
        if (t.isAlive()) {
            StringBuilder dump = new StringBuilder();
            for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                dump.append(info);
            }
            t.interrupt();
            throw new AssertionError(what + " did not finish within " + seconds + " s; threads:\n" + dump);
        }
        Throwable e = failure.get();
        if (e instanceof Exception) {
            throw (Exception) e;
        }
        if (e != null) {
            throw new AssertionError(what + " failed", e);
        }
    }
}
