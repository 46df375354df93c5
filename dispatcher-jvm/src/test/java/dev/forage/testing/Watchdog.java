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
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The one test watchdog of the build: it turns a hang into a failure with diagnostics. Whatever it watches runs
 * on its own daemon thread under a time budget; when the budget is exceeded, the watchdog prints a full thread
 * dump (every thread, every frame, the monitors and locks each holds and waits for, deadlock detection) and
 * fails the test with it. Every hang guard of the tests goes through here:
 *
 * <ul>
 *   <li>JUnit 5 classes: {@code @Watchdog.Budget(seconds = 90)} (or {@code @ExtendWith(Watchdog.class)} for the
 *       default budget) watches every test method, {@code @BeforeEach} and {@code @AfterEach};</li>
 *   <li>a body inside a test: {@link #within(String, Action)}, {@link #within(String, Supplier, Action)} (the
 *       supplier adds context, such as pool statistics, to the failure) or {@link #watch};</li>
 *   <li>a state no latch can signal: {@link #awaitCondition};</li>
 *   <li>Kotest specs: {@code withWatchdog} in {@code dev.forage.coroutines}, a thin adapter over {@link #watch}.</li>
 * </ul>
 *
 * <p>dispatcher-jvm publishes its test classes as a test-jar so that interop-java's tests use this same class.
 *
 * <p><b>Budget property.</b> Every budget in this class is nominal and multiplied by the system property
 * {@value #BUDGET_SCALE_PROPERTY} (a positive decimal, default 1; the result is at least one second).
 * {@code -Dforage.test.budgetScale=3} gives a slow or crowded machine three times as long;
 * {@code -Dforage.test.budgetScale=0.05} makes a deliberately broken pool fail within seconds instead of
 * minutes. There is no other watchdog property.
 *
 * <p>The budgets are generous on purpose: they catch a pool that stopped making progress (a lost wake-up, a
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
    /** The one property of the watchdog: a factor applied to every budget (see the class comment). */
    public static final String BUDGET_SCALE_PROPERTY = "forage.test.budgetScale";

    /** The nominal budget when none is given: a class with {@link Budget} and no value, {@link #LIMIT}. */
    public static final int DEFAULT_BUDGET_SECONDS = 120;

    /** {@link #DEFAULT_BUDGET_SECONDS} as a duration, for {@link #within} and {@link #awaitCondition}. */
    public static final Duration LIMIT = Duration.ofSeconds(DEFAULT_BUDGET_SECONDS);

    /** Puts a test class or method under the watchdog with the given nominal budget per invocation. */
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @ExtendWith(Watchdog.class)
    public @interface Budget {
        int seconds() default DEFAULT_BUDGET_SECONDS;
    }

    /** Something to run under the watchdog that returns a value and may throw anything. */
    @FunctionalInterface
    public interface Body<T> {
        T run() throws Throwable;
    }

    /** Something to run under the watchdog that returns nothing and may throw anything. */
    @FunctionalInterface
    public interface Action {
        void run() throws Throwable;
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

    /** The factor of {@value #BUDGET_SCALE_PROPERTY}; 1 when unset. */
    public static double budgetScale() {
        String value = System.getProperty(BUDGET_SCALE_PROPERTY);
        if (value == null || value.trim().isEmpty()) {
            return 1.0;
        }
        double scale = Double.parseDouble(value.trim());
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException(BUDGET_SCALE_PROPERTY + " must be a positive number: " + value);
        }
        return scale;
    }

    /** A nominal budget after {@value #BUDGET_SCALE_PROPERTY}, never below one second. */
    public static Duration scaled(Duration nominal) {
        long millis = (long) Math.ceil(nominal.toMillis() * budgetScale());
        return Duration.ofMillis(Math.max(1_000L, millis));
    }

    /**
     * Runs {@code body} on a new daemon thread and waits at most {@code budgetSeconds} (scaled) for it. Returns its
     * result or rethrows its failure unchanged; on overrun, fails with a thread dump.
     */
    public static <T> T watch(String name, int budgetSeconds, Body<T> body) throws Throwable {
        return watch(name, Duration.ofSeconds(budgetSeconds), () -> "", body);
    }

    /** Runs {@code action} under the watchdog with the default budget {@link #LIMIT}. */
    public static void within(String what, Action action) throws Throwable {
        within(LIMIT, what, () -> "", action);
    }

    /** As {@link #within(String, Action)}; on a hang the failure also carries {@code context.get()}. */
    public static void within(String what, Supplier<String> context, Action action) throws Throwable {
        within(LIMIT, what, context, action);
    }

    /** As {@link #within(String, Supplier, Action)} with a nominal budget of {@code limit}. */
    public static void within(Duration limit, String what, Supplier<String> context, Action action)
            throws Throwable {
        watch(what, limit, context, () -> {
            action.run();
            return null;
        });
    }

    /**
     * Polls {@code condition} until it holds: for a state no latch can signal (say, "every worker is asleep"). Fails
     * with {@code state.get()} and a thread dump once {@code limit} (scaled) has passed. The short park between
     * polls only spaces them out; the condition decides.
     */
    public static void awaitCondition(String what, Duration limit, BooleanSupplier condition, Supplier<String> state) {
        Duration budget = scaled(limit);
        long deadline = System.nanoTime() + budget.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + describe(budget) + " waiting until " + what + "; "
                        + state.get() + "\nThread dump:\n" + threadDump());
            }
            LockSupport.parkNanos(50_000L);
        }
    }

    /**
     * Waits for {@code latch}, failing with {@code what}, {@code state.get()} and a thread dump once {@code limit}
     * (scaled) has passed: an assertion that the event happened, instead of a wait that only the watchdog ends.
     */
    public static void awaitLatch(String what, Duration limit, java.util.concurrent.CountDownLatch latch,
            Supplier<String> state) throws InterruptedException {
        Duration budget = scaled(limit);
        if (!latch.await(budget.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)) {
            throw new AssertionError("timed out after " + describe(budget) + " waiting until " + what + "; "
                    + state.get() + "\nThread dump:\n" + threadDump());
        }
    }

    private static <T> T watch(String name, Duration nominal, Supplier<String> context, Body<T> body)
            throws Throwable {
        Duration budget = scaled(nominal);
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
            finished = done.await(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            runner.interrupt();
            throw e;
        }
        if (!finished) {
            String dump = threadDump();
            String ctx;
            try {
                ctx = context.get();
            } catch (RuntimeException e) {
                ctx = "(context failed: " + e + ")";
            }
            String extra = ctx.isEmpty() ? "" : " " + ctx;
            System.err.println("WATCHDOG: '" + name + "' exceeded its budget of " + describe(budget) + extra
                    + "\n" + dump);
            runner.interrupt();
            throw new AssertionError("'" + name + "' did not finish within its budget of " + describe(budget)
                    + " (a hang: lost wake-up or deadlock?)." + extra + " Thread dump:\n" + dump);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }

    private static String describe(Duration budget) {
        long ms = budget.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : (ms / 1000.0) + " s";
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
