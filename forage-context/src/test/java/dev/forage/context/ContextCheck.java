package dev.forage.context;

import dev.forage.ForagePool;
import dev.forage.ForagePoolBuilder;
import dev.forage.ForageTaskDecorator;
import dev.forage.coroutines.ForageDispatcher;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFutures;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import kotlin.coroutines.EmptyCoroutineContext;

/**
 * What a decorator that carries a context must do, checked on real pools: each check returns what went wrong, or
 * null. The same checks run on MdcTaskDecorator, OpenTelemetryTaskDecorator and their composition (each library's
 * test), and on decorators broken on purpose ({@code BrokenDecoratorsTest}), which each check must catch.
 */
final class ContextCheck {
    /** A thread-bound context (SLF4J's MDC, OpenTelemetry's Context) seen through one value. */
    interface Carrier {
        /** Makes {@code value} current on this thread; closing the result puts back what was current before. */
        Entered enter(String value);

        /** The value current on this thread, or null. */
        String current();

        /** Leaves this thread with no value, the way a decorator that clears instead of restoring does. */
        void clear();
    }

    /** An entered context; close() does not throw, so try-with-resources needs no catch. */
    interface Entered extends AutoCloseable {
        @Override
        void close();
    }

    private static final long WAIT_SECONDS = 30;

    private final Carrier carrier;
    private final ForageTaskDecorator decorator;

    ContextCheck(Carrier carrier, ForageTaskDecorator decorator) {
        this.carrier = carrier;
        this.decorator = decorator;
    }

    /** Every check's problem, labelled; empty when the decorator does all of it. */
    List<String> problems() throws Exception {
        List<String> problems = new ArrayList<>();
        add(problems, "captured at submission, driver restored", capturedAtSubmissionAndTheDriversOwnRestored());
        add(problems, "a task that leaves a context entered", aTaskThatLeavesAContextEnteredLeavesNoTrace());
        add(problems, "install from outside", installFromOutsideKeepsTheCallersContext());
        add(problems, "throwing task, single-threaded", aThrowingTaskReachesTheHandlerInTheDriversContext());
        add(problems, "throwing task, on a worker", aThrowingTaskLeavesTheWorkerWithoutTheSubmittersContext());
        add(problems, "faces", everyFaceCarriesTheSubmittersContext());
        return problems;
    }

    private static void add(List<String> problems, String check, String problem) {
        if (problem != null) {
            problems.add(check + ": " + problem);
        }
    }

    /**
     * A single-threaded pool runs a task on the thread that drives it, here one whose context differs from the
     * submitter's: the task sees the submitter's, taken at submission, and the driver has its own back after.
     */
    String capturedAtSubmissionAndTheDriversOwnRestored() {
        try (ForagePool pool = singleThreaded(null); Entered submitter = carrier.enter("submitter")) {
            AtomicReference<String> seen = new AtomicReference<>("<not run>");
            pool.execute(() -> seen.set(carrier.current()));
            try (Entered driver = carrier.enter("driver")) {
                pool.runPending();
                if (!"submitter".equals(seen.get())) {
                    return "the task saw " + seen.get() + ", not its submitter's 'submitter'";
                }
                if (!"driver".equals(carrier.current())) {
                    return "the thread that ran the task has " + carrier.current()
                            + " afterwards, not its own 'driver'";
                }
            }
        }
        return null;
    }

    /**
     * A task that enters a context and never leaves it (an {@code MDC.put}, a scope left open): the thread that
     * ran it has its own context back all the same.
     */
    String aTaskThatLeavesAContextEnteredLeavesNoTrace() {
        try (ForagePool pool = singleThreaded(null); Entered submitter = carrier.enter("submitter")) {
            pool.execute(() -> carrier.enter("left by the task"));   // never closed, on purpose
            try (Entered driver = carrier.enter("driver")) {
                pool.runPending();
                if (!"driver".equals(carrier.current())) {
                    return "the thread that ran the task has " + carrier.current()
                            + " afterwards, not its own 'driver'";
                }
            }
        }
        return null;
    }

    /** An install from outside a single-threaded pool runs on the caller: the caller keeps its context. */
    String installFromOutsideKeepsTheCallersContext() {
        try (ForagePool pool = singleThreaded(null); Entered caller = carrier.enter("caller")) {
            String inside = pool.install(carrier::current);
            if (!"caller".equals(inside)) {
                return "the installed computation saw " + inside + ", not the caller's 'caller'";
            }
            if (!"caller".equals(carrier.current())) {
                return "the caller has " + carrier.current() + " after install, not its own 'caller'";
            }
        }
        return null;
    }

    /**
     * A task that throws: the pool's handler receives that very exception, on the driving thread whose own context
     * is back by then (the decorator restores in a finally), and the driver keeps it after.
     */
    String aThrowingTaskReachesTheHandlerInTheDriversContext() {
        IllegalStateException boom = new IllegalStateException("task failed");
        List<String> handled = new ArrayList<>();
        try (ForagePool pool = singleThreaded((t, e) -> handled.add((e == boom ? "boom" : e) + " in "
                + carrier.current())); Entered submitter = carrier.enter("submitter")) {
            AtomicReference<String> seen = new AtomicReference<>("<not run>");
            pool.execute(() -> {
                seen.set(carrier.current());
                throw boom;
            });
            try (Entered driver = carrier.enter("driver")) {
                pool.runPending();
                if (!"submitter".equals(seen.get())) {
                    return "the task saw " + seen.get() + ", not its submitter's 'submitter'";
                }
                if (!handled.equals(List.of("boom in driver"))) {
                    return "the handler got " + handled + ", not [boom in driver]";
                }
                if (!"driver".equals(carrier.current())) {
                    return "the driver has " + carrier.current() + " after the failed task, not its own 'driver'";
                }
            }
        }
        return null;
    }

    /** On a worker thread: the handler of a task that threw runs in the worker's own (empty) context. */
    String aThrowingTaskLeavesTheWorkerWithoutTheSubmittersContext() throws Exception {
        IllegalStateException boom = new IllegalStateException("task failed");
        LinkedBlockingQueue<String> handled = new LinkedBlockingQueue<>();
        try (ForagePool pool = ForagePool.builder().threads(1).name("context-check-worker").taskDecorator(decorator)
                .uncaughtExceptionHandler((t, e) -> handled.add((e == boom ? "boom" : e) + " in "
                        + carrier.current())).build()) {
            try (Entered submitter = carrier.enter("submitter")) {
                pool.execute(() -> {
                    throw boom;
                });
            }
            String report = handled.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            if (!"boom in null".equals(report)) {
                return "the handler got " + report + ", not the task's exception in the worker's own context (null)";
            }
        }
        return null;
    }

    /**
     * Every face a user submits through, on a pool with two workers: the task sees the submitting thread's
     * context, and a task submitted without one sees none.
     */
    String everyFaceCarriesTheSubmittersContext() throws Exception {
        try (ForageExecutorService executor = ForageExecutorService.owning(ForagePool.builder().threads(2)
                .name("context-check-faces").taskDecorator(decorator).build())) {
            ForagePool pool = executor.pool();
            List<String> problems = new ArrayList<>();
            try (Entered request = carrier.enter("request")) {
                expect(problems, "ForagePool.execute", "request", run(pool::execute));
                expect(problems, "ExecutorService.submit", "request", executor.submit(carrier::current));
                expect(problems, "CompletableFuture.supplyAsync(_, pool)", "request",
                        CompletableFuture.supplyAsync(carrier::current, pool));
                // The later stage is decorated on the thread that completes the first: a worker in the context.
                expect(problems, "ForageFutures.supplyAsync.thenApplyAsync", "request/request",
                        ForageFutures.supplyAsync(carrier::current, pool)
                                .thenApplyAsync(first -> first + "/" + carrier.current()));
                expect(problems, "a Kotlin dispatch", "request",
                        run(r -> ForageDispatcher.from(pool).dispatch(EmptyCoroutineContext.INSTANCE, r)));
            }
            expect(problems, "submit without a context", null, executor.submit(carrier::current));
            return problems.isEmpty() ? null : String.join("; ", problems);
        }
    }

    /** What a task submitted through {@code submit} sees. */
    private CompletableFuture<String> run(Consumer<Runnable> submit) {
        CompletableFuture<String> seen = new CompletableFuture<>();
        submit.accept(() -> seen.complete(carrier.current()));
        return seen;
    }

    private static void expect(List<String> problems, String face, String expected,
            Future<String> seen) throws Exception {
        String actual = seen.get(WAIT_SECONDS, TimeUnit.SECONDS);
        if (!Objects.equals(expected, actual)) {
            problems.add(face + " saw " + actual + ", not " + expected);
        }
    }

    private ForagePool singleThreaded(Thread.UncaughtExceptionHandler handler) {
        ForagePoolBuilder b = ForagePool.builder().singleThreaded().name("context-check")
                .taskDecorator(decorator);
        return (handler == null ? b : b.uncaughtExceptionHandler(handler)).build();
    }
}
