package dev.forage.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Turns a hang into a failure with diagnostics: every test method, {@code @BeforeEach} and {@code @AfterEach}
 * of an annotated class runs on its own thread under a time budget; when the budget is exceeded, the watchdog
 * prints a full thread dump (every thread, every frame, the monitors and locks each holds and waits for,
 * deadlock detection) and fails the test with it.
 *
 * <p>The budget is generous on purpose: it catches a pool that stopped making progress (a lost wake-up, a
 * deadlock), not a slow machine. Tests never assert on time.
 *
 * <pre>{@code
 * @Watchdog.Budget(seconds = 90)
 * class MyStressTest { ... }
 * }</pre>
 *
 * The hung thread is interrupted and left behind (it is a daemon thread); pools it built keep their daemon
 * workers, so later tests still run.
 */
public final class Watchdog implements InvocationInterceptor {
    /** Used when a class or method carries {@link Budget} without a value, or for {@link #watch} callers. */
    public static final int DEFAULT_BUDGET_SECONDS = 120;

    /** Puts a test class or method under the watchdog with the given budget per invocation. */
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @ExtendWith(Watchdog.class)
    public @interface Budget {
        int seconds() default DEFAULT_BUDGET_SECONDS;
    }

    /** Something to run under the watchdog that may throw anything. */
    @FunctionalInterface
    public interface Body<T> {
        T run() throws Throwable;
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        watch(context.getDisplayName(), budgetSeconds(context), invocation::proceed);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        watch(context.getDisplayName(), budgetSeconds(context), invocation::proceed);
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        watch("@BeforeEach " + call.getExecutable().getName(), budgetSeconds(context), invocation::proceed);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
            ExtensionContext context) throws Throwable {
        watch("@AfterEach " + call.getExecutable().getName(), budgetSeconds(context), invocation::proceed);
    }

    private static int budgetSeconds(ExtensionContext context) {
        // -Dforage.watchdog.maxSeconds=N caps every budget: handy when checking that a broken pool hangs.
        int cap = Integer.getInteger("forage.watchdog.maxSeconds", Integer.MAX_VALUE);
        return Math.min(annotatedBudgetSeconds(context), cap);
    }

    private static int annotatedBudgetSeconds(ExtensionContext context) {
        Optional<Budget> onMethod = context.getTestMethod()
                .flatMap(m -> AnnotationSupport.findAnnotation(m, Budget.class));
        if (onMethod.isPresent()) {
            return onMethod.get().seconds();
        }
        return context.getTestClass()
                .flatMap(c -> AnnotationSupport.findAnnotation(c, Budget.class))
                .map(Budget::seconds)
                .orElse(DEFAULT_BUDGET_SECONDS);
    }

    /**
     * Runs {@code body} on a new daemon thread and waits at most {@code budgetSeconds} for it. Returns its
     * result or rethrows its failure unchanged; on overrun, fails with a thread dump.
     */
    public static <T> T watch(String name, int budgetSeconds, Body<T> body) throws Throwable {
        CountDownLatch done = new CountDownLatch(1);
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread runner = new Thread(() -> {
            try {
                result[0] = body.run();
            } catch (Throwable t) {
                failure[0] = t;
            } finally {
                done.countDown();
            }
        }, "watched: " + name);
        runner.setDaemon(true);
        runner.start();
        boolean finished;
        try {
            finished = done.await(budgetSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            runner.interrupt();
            throw e;
        }
        if (!finished) {
            String dump = threadDump();
            System.err.println("WATCHDOG: '" + name + "' exceeded its budget of " + budgetSeconds + " s\n" + dump);
            runner.interrupt();
            throw new AssertionError("'" + name + "' did not finish within its budget of " + budgetSeconds
                    + " s (a hang: lost wake-up or deadlock?). Thread dump:\n" + dump);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }

    /** A full thread dump: every live thread with its whole stack, held monitors and locks, and deadlocks. */
    public static String threadDump() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ThreadInfo[] infos = mx.dumpAllThreads(mx.isObjectMonitorUsageSupported(),
                mx.isSynchronizerUsageSupported());
        long[] deadlocked = mx.isSynchronizerUsageSupported()
                ? mx.findDeadlockedThreads()
                : mx.findMonitorDeadlockedThreads();
        Set<Long> inDeadlock = new HashSet<>();
        if (deadlocked != null) {
            for (long id : deadlocked) {
                inDeadlock.add(id);
            }
        }
        StringBuilder sb = new StringBuilder(16 * 1024);
        sb.append("=== thread dump: ").append(infos.length).append(" threads");
        if (!inDeadlock.isEmpty()) {
            sb.append(", DEADLOCK among threads ").append(inDeadlock);
        }
        sb.append(" ===\n");
        Arrays.sort(infos, Comparator.comparing(ThreadInfo::getThreadName));
        for (ThreadInfo info : infos) {
            appendThread(sb, info, inDeadlock.contains(info.getThreadId()));
        }
        return sb.toString();
    }

    private static void appendThread(StringBuilder sb, ThreadInfo info, boolean deadlocked) {
        sb.append('"').append(info.getThreadName()).append("\" #").append(info.getThreadId())
                .append(info.isDaemon() ? " daemon" : "").append(' ').append(info.getThreadState());
        if (deadlocked) {
            sb.append(" (DEADLOCKED)");
        }
        if (info.getLockName() != null) {
            sb.append(" on ").append(info.getLockName());
        }
        if (info.getLockOwnerName() != null) {
            sb.append(" owned by \"").append(info.getLockOwnerName()).append("\" #").append(info.getLockOwnerId());
        }
        sb.append('\n');
        StackTraceElement[] stack = info.getStackTrace();
        MonitorInfo[] monitors = info.getLockedMonitors();
        for (int depth = 0; depth < stack.length; depth++) {
            sb.append("\tat ").append(stack[depth]).append('\n');
            if (depth == 0 && info.getLockInfo() != null) {
                sb.append("\t- waiting on ").append(info.getLockInfo()).append('\n');
            }
            for (MonitorInfo m : monitors) {
                if (m.getLockedStackDepth() == depth) {
                    sb.append("\t- locked ").append(m).append('\n');
                }
            }
        }
        LockInfo[] synchronizers = info.getLockedSynchronizers();
        if (synchronizers.length > 0) {
            sb.append("\tLocked synchronizers:\n");
            for (LockInfo l : synchronizers) {
                sb.append("\t- ").append(l).append('\n');
            }
        }
        sb.append('\n');
    }
}
