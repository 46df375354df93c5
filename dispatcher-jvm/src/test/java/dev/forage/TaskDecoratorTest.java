package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.coroutines.ForageDispatcher;
import dev.forage.testing.Fib;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import kotlin.coroutines.EmptyCoroutineContext;
import org.junit.jupiter.api.Test;

/**
 * {@link ForagePoolBuilder#taskDecorator}: which submissions carry the submitting thread's context onto the worker,
 * which structured work is left alone, and what a failing decorator does to a submission.
 */
@Watchdog.Budget(seconds = 60)
class TaskDecoratorTest {
    /** The "context" a decorator carries: a plain thread-local, as an MDC or a tracing context is. */
    private static final ThreadLocal<String> CONTEXT = new ThreadLocal<>();

    /** Captures {@link #CONTEXT} at submission, restores it around the run and puts back what the worker had. */
    private static final class Carrying implements ForageTaskDecorator {
        final AtomicInteger decorations = new AtomicInteger();

        @Override
        public Runnable decorate(Runnable task) {
            decorations.incrementAndGet();
            String captured = CONTEXT.get();
            return () -> {
                String previous = CONTEXT.get();
                CONTEXT.set(captured);
                try {
                    task.run();
                } finally {
                    CONTEXT.set(previous);
                }
            };
        }
    }

    private static ForagePool pool(int threads, ForageTaskDecorator decorator) {
        ForagePoolBuilder b = ForagePool.builder().name(Pools.uniqueName()).taskDecorator(decorator);
        return (threads == 0 ? b.singleThreaded() : b.threads(threads)).build();
    }

    @Test
    void everyKindOfSubmissionSeesTheSubmittersContextOnTheWorker() throws Exception {
        try (ForagePool pool = pool(2, new Carrying())) {
            Map<String, Consumer<Runnable>> submissions = new LinkedHashMap<>();
            submissions.put("execute", pool::execute);
            submissions.put("executeFair", pool::executeFair);
            submissions.put("schedule", r -> pool.schedule(r, 1, TimeUnit.MILLISECONDS));
            submissions.put("blockingExecutor()", r -> pool.blockingExecutor().execute(r));
            submissions.put("blockingExecutor(2)", r -> pool.blockingExecutor(2).execute(r));
            submissions.put("scopeAsync", r -> pool.scopeAsync(s -> {
                r.run();
                return null;
            }, (v, e) -> { }));
            submissions.put("install", r -> pool.install(() -> {
                r.run();
                return null;
            }));
            submissions.put("join", r -> pool.join(() -> {
                r.run();                       // the first half runs on the worker that runs the decorated call
                return null;
            }, () -> null));
            submissions.put("scope", r -> pool.scope(s -> {
                r.run();
                return null;
            }));
            submissions.put("Kotlin dispatch", r ->
                    ForageDispatcher.from(pool).dispatch(EmptyCoroutineContext.INSTANCE, r));
            for (Map.Entry<String, Consumer<Runnable>> e : submissions.entrySet()) {
                String context = "request-" + e.getKey();
                CONTEXT.set(context);
                CompletableFuture<String> seen = new CompletableFuture<>();
                try {
                    e.getValue().accept(() -> seen.complete(
                            (pool.isCurrentThreadWorker() ? "" : "not on a worker: ") + CONTEXT.get()));
                } finally {
                    CONTEXT.remove();
                }
                assertEquals(context, seen.get(30, TimeUnit.SECONDS), e.getKey());
            }
        }
    }

    @Test
    void structuredWorkInsideAJobIsNotDecoratedAgain() throws Exception {
        Carrying decorator = new Carrying();
        try (ForagePool pool = pool(2, decorator)) {
            assertEquals(55L, (long) pool.install(() -> Fib.join(pool, 10)), "fib(10) by join");
            assertEquals(1, decorator.decorations.get(), "the install from outside, not its 88 join halves");

            AtomicInteger spawned = new AtomicInteger();
            pool.scope(s -> {
                for (int i = 0; i < 20; i++) {
                    s.spawn(inner -> inner.spawn(spawned::incrementAndGet));
                }
                return null;
            });
            assertEquals(20, spawned.get());
            assertEquals(2, decorator.decorations.get(), "the scope from outside, not its 40 spawns");

            CompletableFuture<Long> inside = new CompletableFuture<>();
            pool.execute(() -> inside.complete(pool.install(() -> Fib.join(pool, 8))));
            assertEquals(21L, (long) inside.get(30, TimeUnit.SECONDS));
            assertEquals(3, decorator.decorations.get(), "the execute; an install on a worker runs inline");

            CompletableFuture<Void> nested = new CompletableFuture<>();
            pool.execute(() -> pool.execute(() -> nested.complete(null)));
            nested.get(30, TimeUnit.SECONDS);
            assertEquals(5, decorator.decorations.get(), "a task submitted by a task is a submission too");
        }
    }

    @Test
    void aThrowingDecoratorFailsTheSubmissionAndQueuesNothing() {
        IllegalStateException boom = new IllegalStateException("no context to capture");
        try (ForagePool pool = pool(0, task -> {
            throw boom;
        })) {
            AtomicBoolean ran = new AtomicBoolean();
            Runnable task = () -> ran.set(true);
            List<Runnable> submissions = new ArrayList<>();
            submissions.add(() -> pool.execute(task));
            submissions.add(() -> pool.executeFair(task));
            submissions.add(() -> pool.schedule(task, 0, TimeUnit.MILLISECONDS));
            submissions.add(() -> pool.blockingExecutor().execute(task));
            submissions.add(() -> pool.scopeAsync(s -> {
                task.run();
                return null;
            }, (v, e) -> task.run()));
            submissions.add(() -> pool.install(() -> {
                task.run();
                return null;
            }));
            submissions.add(() -> pool.join(() -> {
                task.run();
                return null;
            }, () -> null));
            for (Runnable submit : submissions) {
                assertSame(boom, assertThrows(IllegalStateException.class, submit::run));
            }
            assertEquals(0, pool.runPending(), "nothing was queued");
            assertFalse(ran.get());
        }
    }

    @Test
    void aDecoratorReturningNullFailsTheSubmissionWithAClearMessage() {
        try (ForagePool pool = pool(0, task -> null)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> pool.execute(() -> { }));
            assertTrue(e.getMessage().contains("the task decorator returned null"), e.getMessage());
            assertTrue(e.getMessage().contains("pool " + pool.name()), e.getMessage());
            assertEquals(0, pool.runPending(), "nothing was queued");
        }
    }

    @Test
    void aDecoratorThatDoesNotRunTheTaskIsReportedByStructuredCalls() {
        try (ForagePool pool = pool(1, task -> () -> { })) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.install(() -> 1));
            assertTrue(e.getMessage().contains("did not run the task"), e.getMessage());
        }
    }

    @Test
    void aNullDecoratorIsRefusedByTheBuilder() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> ForagePool.builder().taskDecorator(null));
        assertTrue(e.getMessage().startsWith("taskDecorator must not be null"), e.getMessage());
    }

    @Test
    void shutdownNowReturnsTheTasksAsSubmitted() throws Exception {
        ForagePool pool = pool(1, new Carrying());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await();
        List<Runnable> submitted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Runnable r = () -> { };
            submitted.add(r);
            pool.execute(r);
        }
        Runnable timed = () -> { };
        pool.schedule(timed, 1, TimeUnit.HOURS);
        List<Runnable> neverStarted = pool.shutdownNow();
        release.countDown();
        assertEquals(4, neverStarted.size(), neverStarted.toString());
        assertTrue(neverStarted.contains(timed), "the timer's job as scheduled");
        for (Runnable r : submitted) {
            assertTrue(neverStarted.stream().anyMatch(j -> j == r), "returned undecorated: " + neverStarted);
        }
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }

    @Test
    void aPoolWithoutDecoratorQueuesTasksAsTheyAre() throws Exception {
        try (ForagePool pool = Pools.pool(1)) {
            CONTEXT.set("not carried");
            CompletableFuture<String> seen = new CompletableFuture<>();
            try {
                pool.execute(() -> seen.complete(String.valueOf(CONTEXT.get())));
            } finally {
                CONTEXT.remove();
            }
            assertEquals("null", seen.get(30, TimeUnit.SECONDS));
            assertNull(CONTEXT.get());
        }
    }
}
