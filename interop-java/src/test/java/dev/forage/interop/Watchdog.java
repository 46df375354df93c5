package dev.forage.interop;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Turns a hung test into a failure that carries a full thread dump. Each test method (and each @AfterEach,
 * which closes pools) runs on its own thread; if it has not finished after {@link #LIMIT_SECONDS}, the test
 * fails with the stacks and locks of every thread, and the stuck thread is abandoned (it is a daemon).
 */
public final class Watchdog implements InvocationInterceptor {
    /** Generous: the machine has 2 cores shared with other builds. Override with -Dforage.test.watchdogSeconds. */
    static final long LIMIT_SECONDS = Long.getLong("forage.test.watchdogSeconds", 60L);

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        guard(invocation, extension.getDisplayName());
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        guard(invocation, extension.getDisplayName());
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        guard(invocation, "@AfterEach of " + extension.getDisplayName());
    }

    private static void guard(Invocation<Void> invocation, String name) throws Throwable {
        FutureTask<Void> body = new FutureTask<>(() -> {
            try {
                return invocation.proceed();
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new Exception(t);
            }
        });
        Thread thread = new Thread(body, "test: " + name);
        thread.setDaemon(true);
        thread.start();
        try {
            body.get(LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            String dump = threadDump();
            System.err.println("WATCHDOG: " + name + " hung for " + LIMIT_SECONDS + " s\n" + dump);
            thread.interrupt();
            throw new AssertionError(name + " hung for " + LIMIT_SECONDS + " s; thread dump:\n" + dump);
        }
    }

    /** Every thread's full stack (ThreadInfo.toString cuts stacks at 8 frames), with monitors and locks. */
    static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                out.append(" on ").append(info.getLockName());
            }
            if (info.getLockOwnerName() != null) {
                out.append(" owned by \"").append(info.getLockOwnerName()).append('"');
            }
            out.append('\n');
            StackTraceElement[] stack = info.getStackTrace();
            for (int i = 0; i < stack.length; i++) {
                out.append("\tat ").append(stack[i]).append('\n');
                for (MonitorInfo m : info.getLockedMonitors()) {
                    if (m.getLockedStackDepth() == i) {
                        out.append("\t- locked ").append(m).append('\n');
                    }
                }
            }
            for (LockInfo l : info.getLockedSynchronizers()) {
                out.append("\t- holds ").append(l).append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }
}
