package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stages of a {@link ForageFuture}: what they return, where their async actions run, and how they report
 * outcomes, compared with the JDK's own {@link CompletableFuture}. Every test runs twice: with the JDK 9+
 * hooks ({@code newIncompleteFuture}/{@code defaultExecutor}) this JVM has, and in the mode that emulates
 * Java 8 (no hooks: every stage is relayed), so the Java 8 / Android path is covered on JDK 17 and 25 too.
 */
@ExtendWith(Watchdog.class)
class ForageFutureStagesTest {
    private static final String NOT_ON_POOL = "not a pool worker";

    private final ForagePool pool = ForagePool.builder().threads(2).name("stages").build();
    private final ExecutorService jdkExecutor = Executors.newFixedThreadPool(2);

    @AfterEach
    void close() {
        jdkExecutor.shutdownNow();
        pool.close();
    }

    /** An incomplete future on the pool, in the given mode. */
    private <T> ForageFuture<T> newFuture(boolean java8) {
        return java8 ? new ForageFuture<>(pool, true) : ForageFutures.newFuture(pool);
    }

    private <T> ForageFuture<T> supplyAsync(boolean java8, Supplier<T> supplier) {
        ForageFuture<T> f = newFuture(java8);
        f.completeAsync(supplier);
        return f;
    }

    private static String where() {
        ForagePool p = ForagePool.current();
        return p == null ? NOT_ON_POOL : p.name();
    }

    @ParameterizedTest(name = "java8Stages={0}")
    @ValueSource(booleans = {false, true})
    void asyncStagesWithoutAnExecutorRunOnThePoolAndAreForageFutures(boolean java8) {
        ForageFuture<Integer> a = newFuture(java8);
        ForageFuture<Integer> b = newFuture(java8);
        Map<String, String> ranOn = new ConcurrentHashMap<>();
        Map<String, CompletableFuture<?>> stages = new LinkedHashMap<>();
        stages.put("thenApplyAsync", a.thenApplyAsync(x -> ranOn.put("thenApplyAsync", where())));
        stages.put("thenAcceptAsync", a.thenAcceptAsync(x -> ranOn.put("thenAcceptAsync", where())));
        stages.put("thenRunAsync", a.thenRunAsync(() -> ranOn.put("thenRunAsync", where())));
        stages.put("thenCombineAsync", a.thenCombineAsync(b, (x, y) -> ranOn.put("thenCombineAsync", where())));
        stages.put("thenAcceptBothAsync", a.thenAcceptBothAsync(b, (x, y) -> ranOn.put("thenAcceptBothAsync", where())));
        stages.put("runAfterBothAsync", a.runAfterBothAsync(b, () -> ranOn.put("runAfterBothAsync", where())));
        stages.put("applyToEitherAsync", a.applyToEitherAsync(b, x -> ranOn.put("applyToEitherAsync", where())));
        stages.put("acceptEitherAsync", a.acceptEitherAsync(b, x -> ranOn.put("acceptEitherAsync", where())));
        stages.put("runAfterEitherAsync", a.runAfterEitherAsync(b, () -> ranOn.put("runAfterEitherAsync", where())));
        stages.put("thenComposeAsync", a.thenComposeAsync(x -> {
            ranOn.put("thenComposeAsync", where());
            return CompletableFuture.completedFuture(x);
        }));
        stages.put("whenCompleteAsync", a.whenCompleteAsync((x, e) -> ranOn.put("whenCompleteAsync", where())));
        stages.put("handleAsync", a.handleAsync((x, e) -> ranOn.put("handleAsync", where())));
        a.complete(1); // from the test thread: a synchronous stage would run here, off the pool
        b.complete(2);
        for (Map.Entry<String, CompletableFuture<?>> e : stages.entrySet()) {
            e.getValue().join();
            ForageFuture<?> stage = assertInstanceOf(ForageFuture.class, e.getValue(), e.getKey());
            assertSame(pool, stage.pool(), e.getKey());
            assertEquals(pool.name(), ranOn.get(e.getKey()), e.getKey() + " did not run on the pool");
        }
    }

    @ParameterizedTest(name = "java8Stages={0}")
    @ValueSource(booleans = {false, true})
    void everyDerivedStageIsAForageFutureOnTheSamePool(boolean java8) {
        ForageFuture<Integer> a = newFuture(java8);
        ForageFuture<Integer> b = newFuture(java8);
        List<CompletableFuture<?>> stages = new ArrayList<>();
        stages.add(a.thenApply(x -> x));
        stages.add(a.thenAccept(x -> { }));
        stages.add(a.thenRun(() -> { }));
        stages.add(a.thenCombine(b, Integer::sum));
        stages.add(a.thenAcceptBoth(b, (x, y) -> { }));
        stages.add(a.runAfterBoth(b, () -> { }));
        stages.add(a.applyToEither(b, x -> x));
        stages.add(a.acceptEither(b, x -> { }));
        stages.add(a.runAfterEither(b, () -> { }));
        stages.add(a.thenCompose(CompletableFuture::completedFuture));
        stages.add(a.whenComplete((x, e) -> { }));
        stages.add(a.handle((x, e) -> x));
        stages.add(a.exceptionally(e -> 0));
        stages.add(a.copy());
        stages.add(a.thenApplyAsync(x -> x, jdkExecutor).thenApply(x -> x).thenApplyAsync(x -> x));
        a.complete(1);
        b.complete(2);
        for (CompletableFuture<?> stage : stages) {
            stage.join();
            assertSame(pool, assertInstanceOf(ForageFuture.class, stage).pool());
        }
        assertSame(a, a.toCompletableFuture());
    }

    @ParameterizedTest(name = "java8Stages={0}")
    @ValueSource(booleans = {false, true})
    void cancellingADependentBeforeItsSourceCompletesSkipsItsAction(boolean java8) {
        ForageFuture<Integer> source = newFuture(java8);
        AtomicBoolean ran = new AtomicBoolean();
        ForageFuture<Integer> dependent = source.thenApply(x -> {
            ran.set(true);
            return x;
        });
        ForageFuture<Integer> completedEarly = source.thenApply(x -> {
            ran.set(true);
            return x;
        });
        assertTrue(dependent.cancel(true));
        assertTrue(completedEarly.complete(7));
        source.complete(1);
        assertFalse(ran.get(), "a stage completed before its source still ran its action");
        assertTrue(dependent.isCancelled());
        assertEquals(7, completedEarly.join());
    }

    /**
     * Each scenario is built once on the JDK's CompletableFuture and once on ForageFuture; the observable
     * outcomes (join, get, getNow, the flags, and exceptions seen by handlers) must be identical.
     */
    @ParameterizedTest(name = "java8Stages={0}")
    @ValueSource(booleans = {false, true})
    void outcomesMatchTheJdksCompletableFutureExactly(boolean java8) {
        Futures jdk = new Futures() {
            @Override
            public <T> CompletableFuture<T> supplyAsync(Supplier<T> s) {
                return CompletableFuture.supplyAsync(s, jdkExecutor);
            }

            @Override
            public <T> CompletableFuture<T> incomplete() {
                return new CompletableFuture<>();
            }
        };
        Futures forage = new Futures() {
            @Override
            public <T> CompletableFuture<T> supplyAsync(Supplier<T> s) {
                return java8 ? ForageFutureStagesTest.this.supplyAsync(true, s) : ForageFutures.supplyAsync(s, pool);
            }

            @Override
            public <T> CompletableFuture<T> incomplete() {
                return newFuture(java8);
            }
        };
        for (Map.Entry<String, Function<Futures, CompletableFuture<?>>> scenario : scenarios().entrySet()) {
            String expected = Outcome.of(scenario.getValue().apply(jdk));
            String actual = Outcome.of(scenario.getValue().apply(forage));
            assertEquals(expected, actual, "scenario: " + scenario.getKey());
        }
    }

    /** How a scenario makes its futures. */
    interface Futures {
        <T> CompletableFuture<T> supplyAsync(Supplier<T> s);

        <T> CompletableFuture<T> incomplete();

        default <T> CompletableFuture<T> failed(Throwable t) {
            CompletableFuture<T> f = incomplete();
            f.completeExceptionally(t);
            return f;
        }
    }

    private static Integer boom() {
        throw new IllegalStateException("boom");
    }

    private static Map<String, Function<Futures, CompletableFuture<?>>> scenarios() {
        Map<String, Function<Futures, CompletableFuture<?>>> s = new LinkedHashMap<>();
        s.put("supplier throws", f -> f.supplyAsync(ForageFutureStagesTest::boom));
        s.put("supplier throws a CompletionException", f -> f.supplyAsync(() -> {
            throw new CompletionException("already wrapped", new IllegalArgumentException("inner"));
        }));
        s.put("thenApply throws", f -> f.supplyAsync(() -> 1).thenApply(x -> boom()));
        s.put("thenApplyAsync throws", f -> f.supplyAsync(() -> 1).thenApplyAsync(x -> boom()));
        s.put("dependent of a failed supplier", f -> f.supplyAsync(ForageFutureStagesTest::boom).thenApply(x -> x + 1));
        s.put("exceptionally sees", f -> f.supplyAsync(() -> (Object) boom()).exceptionally(Outcome::describe));
        s.put("handle sees", f -> f.supplyAsync(ForageFutureStagesTest::boom).handle((v, e) -> Outcome.describe(e)));
        s.put("whenComplete sees", f -> {
            CompletableFuture<String> seen = new CompletableFuture<>();
            f.supplyAsync(ForageFutureStagesTest::boom).whenComplete((v, e) -> seen.complete(Outcome.describe(e)));
            return seen;
        });
        s.put("completed exceptionally, then a dependent",
                f -> f.<Integer>failed(new IllegalStateException("raw")).thenApply(x -> x + 1));
        s.put("completed exceptionally, exceptionally sees",
                f -> f.<Object>failed(new IllegalStateException("raw")).exceptionally(Outcome::describe));
        s.put("cancelled", f -> {
            CompletableFuture<Integer> c = f.incomplete();
            c.cancel(true);
            return c;
        });
        s.put("dependent of a cancelled future", f -> {
            CompletableFuture<Integer> c = f.incomplete();
            CompletableFuture<Integer> d = c.thenApply(x -> x + 1);
            c.cancel(true);
            return d;
        });
        s.put("thenCompose with a failed stage",
                f -> f.supplyAsync(() -> 1).thenCompose(x -> f.<Integer>failed(new IllegalStateException("inner"))));
        s.put("thenCompose fn throws", f -> f.supplyAsync(() -> 1).thenCompose(x -> {
            throw new IllegalStateException("compose");
        }));
        s.put("whenComplete action throws after success", f -> f.supplyAsync(() -> 1).whenComplete((v, e) -> {
            throw new IllegalArgumentException("action");
        }));
        s.put("whenComplete action throws after failure",
                f -> f.supplyAsync(ForageFutureStagesTest::boom).whenComplete((v, e) -> {
                    throw new IllegalArgumentException("action");
                }));
        s.put("thenCombine with a failed other",
                f -> f.supplyAsync(() -> 1).thenCombine(f.<Integer>failed(new IllegalStateException("other")), Integer::sum));
        s.put("applyToEither both failed", f -> f.<Integer>failed(new IllegalStateException("one"))
                .applyToEither(f.<Integer>failed(new IllegalStateException("one")), x -> x));
        s.put("handle recovers", f -> f.supplyAsync(ForageFutureStagesTest::boom).handle((v, e) -> 42));
        s.put("copy of a failed future", f -> f.<Integer>failed(new IllegalStateException("raw")).copy());
        return s;
    }

    /** A deterministic description of a completed future's observable outcome. */
    static final class Outcome {
        static String of(CompletableFuture<?> f) {
            try {
                f.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("scenario did not complete", e);
            }
            return "join=" + attempt(f::join) + " get=" + attempt(f::get) + " getNow=" + attempt(() -> f.getNow(null))
                    + " exceptionally=" + f.isCompletedExceptionally() + " cancelled=" + f.isCancelled();
        }

        interface Call {
            Object call() throws Exception;
        }

        static String attempt(Call c) {
            try {
                return "value(" + c.call() + ")";
            } catch (Throwable t) {
                return describe(t);
            }
        }

        static String describe(Throwable t) {
            if (t == null) {
                return "none";
            }
            StringBuilder b = new StringBuilder(t.getClass().getSimpleName()).append('[').append(t.getMessage());
            for (Throwable s : t.getSuppressed()) {
                b.append(" suppressed ").append(describe(s));
            }
            if (t.getCause() != null && t.getCause() != t) {
                b.append(" cause ").append(describe(t.getCause()));
            }
            return b.append(']').toString();
        }
    }
}
