package dev.forage.samples.futures;

import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import dev.forage.interop.ForageFuture;
import dev.forage.interop.ForageFutures;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prices a small order with a {@code CompletableFuture} pipeline on a private Forage pool, in four steps:
 *
 * <ol>
 *   <li><b>fan-out / fan-in</b>: one {@code supplyAsync} per line item, joined with {@code allOf} and summed
 *       on the pool;</li>
 *   <li><b>a failing stage</b>: an unknown item throws; {@code handle} turns the failure into a fallback;</li>
 *   <li><b>a timeout</b>: a shipping quote that never answers; the pool's own timer fails it with a
 *       {@code TimeoutException} and {@code exceptionally} applies a flat rate;</li>
 *   <li><b>cancellation</b>: an endless audit is cancelled; its dependent stage fails with a
 *       {@code CancellationException} and the running task sees the cancellation and stops.</li>
 * </ol>
 *
 * Run it: {@code mvn -B -ntp verify -pl samples/java-futures -am -Prun-sample -DskipTests -Djcstress.skip=true}
 * (see the README). It uses only {@code interop-java}: no Kotlin anywhere on its classpath.
 */
public final class OrderPipeline {
    /** Line items of the order; "gift-card" is not in the catalogue, so pricing it fails. */
    static final List<String> ORDER = Arrays.asList("kettle", "teapot", "mug", "mug", "tea-tin");
    static final long FLAT_SHIPPING_CENTS = 499;
    static final long SHIPPING_TIMEOUT_MILLIS = 100;
    private static final int POOL_THREADS = 2;

    /** Keeps the JIT from dropping the busy work. */
    private static volatile long sink;

    private final ForagePool pool;
    private final PrintStream out;

    OrderPipeline(ForagePool pool, PrintStream out) {
        this.pool = pool;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        ForagePool pool = ForagePool.builder().threads(POOL_THREADS).name("orders").build();
        // The executor owns the pool: close() shuts both down and waits for the workers to end.
        try (ForageExecutorService executor = ForageExecutorService.owning(pool)) {
            new OrderPipeline(executor.pool(), System.out).runAll();
        }
    }

    /** Runs the four steps in order, printing one line each. */
    void runAll() throws InterruptedException {
        long subtotal = fanOutFanIn();
        failingStage();
        long shipping = timeout();
        cancellation();
        out.printf("total: %d cents (items %d + shipping %d)%n", subtotal + shipping, subtotal, shipping);
    }

    /** Step 1: price every item in parallel, then add up the prices in a stage that runs on the pool. */
    long fanOutFanIn() {
        List<ForageFuture<PricedItem>> prices = new ArrayList<>();
        for (String item : ORDER) {
            prices.add(ForageFutures.supplyAsync(() -> price(item), pool));
        }
        ForageFuture<Long> subtotal = ForageFutures.allOf(pool, prices.toArray(new ForageFuture<?>[0]))
                .thenApplyAsync(done -> {
                    long sum = 0;
                    for (ForageFuture<PricedItem> price : prices) {
                        sum += price.join().cents; // all complete here; on a worker join() would help, never block
                    }
                    return sum;
                });
        long onPool = prices.stream().filter(p -> p.join().pricedOnPool).count();
        out.printf("fan-out: %d items priced in parallel, %d of them on the pool's workers; subtotal %d cents%n",
                prices.size(), onPool, subtotal.join());
        return subtotal.join();
    }

    /** Step 2: a stage that throws, and a {@code handle} that recovers from it. */
    void failingStage() {
        String recovered = ForageFutures.supplyAsync(() -> price("gift-card"), pool)
                .handle((priced, error) -> {
                    if (error == null) {
                        return "priced at " + priced.cents;
                    }
                    Throwable cause = error instanceof CompletionException ? error.getCause() : error;
                    return "recovered from " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
                })
                .join();
        out.println("failing stage: " + recovered);
    }

    /** Step 3: a quote nobody answers, timed out by the pool's timers, then the flat rate. */
    long timeout() {
        ForageFuture<Long> quote = ForageFutures.newFuture(pool); // the carrier's reply, which never comes
        long cents = ForageFutures.orTimeout(quote, SHIPPING_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS, pool)
                .exceptionally(error -> {
                    if (error instanceof TimeoutException) {
                        return FLAT_SHIPPING_CENTS;
                    }
                    throw new CompletionException(error); // any other failure is not ours to hide
                })
                .join();
        String why = quote.handle((value, error) -> error == null ? "answered" : error.getClass().getSimpleName())
                .join();
        out.printf("timeout: the carrier's quote failed with %s after %d ms; shipping at the flat rate, %d cents%n",
                why, SHIPPING_TIMEOUT_MILLIS, cents);
        return cents;
    }

    /**
     * Step 4: cancel a running audit. {@code CompletableFuture.cancel} does not interrupt the task (JDK
     * semantics), so the task checks its own future between batches and stops.
     */
    void cancellation() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicLong batches = new AtomicLong();
        ForageFuture<Long> audit = ForageFutures.newFuture(pool);
        audit.completeAsync(() -> {
            try {
                started.countDown();
                while (!audit.isCancelled()) {
                    auditOneBatch();
                    batches.incrementAndGet();
                }
                return batches.get();
            } finally {
                stopped.countDown();
            }
        });
        ForageFuture<String> summary = audit.thenApplyAsync(n -> "audited " + n + " batches");

        await(started, "the audit to start");
        boolean cancelled = audit.cancel(true);
        await(stopped, "the audit task to stop");

        String outcome;
        try {
            outcome = summary.join();
        } catch (CompletionException e) {
            outcome = "dependent failed with " + e.getCause().getClass().getSimpleName();
        } catch (CancellationException e) {
            outcome = "dependent cancelled";
        }
        out.printf("cancellation: audit cancelled=%s, its task stopped after %d batches, %s%n",
                cancelled, batches.get(), outcome);
    }

    private PricedItem price(String item) {
        long cents;
        switch (item) {
            case "kettle": cents = 3499; break;
            case "teapot": cents = 2450; break;
            case "mug": cents = 899; break;
            case "tea-tin": cents = 1275; break;
            default: throw new IllegalArgumentException("no price for '" + item + "' in the catalogue");
        }
        sink = spin(item.hashCode(), 200_000); // the CPU work of a real pricing rule
        return new PricedItem(cents, ForagePool.current() == pool);
    }

    private static void auditOneBatch() {
        sink = spin(42, 10_000);
    }

    private static long spin(long seed, int rounds) {
        long x = seed;
        for (int i = 0; i < rounds; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("gave up waiting for " + what + " after 30 s");
        }
    }

    /** A price, and whether it was computed on one of the pool's workers. */
    static final class PricedItem {
        final long cents;
        final boolean pricedOnPool;

        PricedItem(long cents, boolean pricedOnPool) {
            this.cents = cents;
            this.pricedOnPool = pricedOnPool;
        }
    }
}
