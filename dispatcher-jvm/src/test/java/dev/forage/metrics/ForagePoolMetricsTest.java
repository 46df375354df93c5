package dev.forage.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.PoolCounter;
import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Micrometer binder: every meter is there, tagged, and moves with the pool. */
@Watchdog.Budget(seconds = 120)
class ForagePoolMetricsTest {
    @Test
    void meterNamesAreTheCounterKeysInDottedWords() {
        assertEquals("forage.pool.jobs.run", ForagePoolMetrics.meterName(PoolCounter.JOBS_RUN));
        assertEquals("forage.pool.wakeups.without.work",
                ForagePoolMetrics.meterName(PoolCounter.WAKEUPS_WITHOUT_WORK));
        assertEquals("forage.pool.steals", ForagePoolMetrics.meterName(PoolCounter.STEALS));
    }

    /**
     * Prometheus keeps one HELP line per metric family, whichever meter of the name registered first: each help
     * text must therefore be true of every tag value, which here means it names each of them.
     */
    @Test
    void eachPrometheusHelpTextNamesEveryTagValueOfItsFamily() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (ForagePool pool = ForagePool.builder().threads(2).name("metrics-scrape").build()) {
            new ForagePoolMetrics(pool).bindTo(registry);
            String scrape = registry.scrape();
            Map<String, String> help = new HashMap<>();
            Map<String, Set<String>> values = new TreeMap<>();
            Pattern helpLine = Pattern.compile("# HELP (\\S+) (.*)");
            Pattern sample = Pattern.compile(
                    "(forage_pool_[a-z_]+)\\{[^}]*\\b(state|queue|percentile)=\"([a-z0-9]+)\"");
            for (String line : scrape.split("\n")) {
                Matcher h = helpLine.matcher(line);
                if (h.matches()) {
                    help.put(h.group(1), h.group(2));
                }
                Matcher m = sample.matcher(line);
                if (m.find()) {
                    values.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(3));
                }
            }
            assertEquals(Set.of("forage_pool_workers", "forage_pool_blocking", "forage_pool_queued",
                    "forage_pool_queue_wait_percentile_seconds"), values.keySet(),
                    "the tagged families in\n" + scrape);
            for (Map.Entry<String, Set<String>> family : values.entrySet()) {
                String text = help.get(family.getKey());
                assertNotNull(text, "no HELP for " + family.getKey());
                for (String value : family.getValue()) {
                    assertTrue(text.contains(value + " ("), family.getKey() + "'s help does not say what '" + value
                            + "' counts: " + text);
                }
            }
        }
    }

    @Test
    void countersAndBusyTimeGrowAsJobsRun() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ForagePool pool = ForagePool.builder().threads(2).name("metrics-busy").build()) {
            new ForagePoolMetrics(pool, Tags.of("service", "test")).bindTo(registry);
            for (PoolCounter c : PoolCounter.values()) {
                FunctionCounter counter = registry.find(ForagePoolMetrics.meterName(c))
                        .tags("pool", "metrics-busy", "service", "test").functionCounter();
                assertNotNull(counter, c + " has no meter");
                assertEquals(c.description(), counter.getId().getDescription());
            }
            FunctionCounter jobs = registry.get("forage.pool.jobs.run").tag("pool", "metrics-busy").functionCounter();
            FunctionCounter injected = registry.get("forage.pool.injected.jobs").functionCounter();
            FunctionCounter busy = registry.get("forage.pool.busy").functionCounter();
            assertEquals("seconds", busy.getId().getBaseUnit());
            double busyBefore = busy.count();

            int n = 100;
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                pool.execute(done::countDown);
            }
            done.await();
            // A job's count is written just after it ran: wait for the last one.
            Poll.until("every job counted", () -> jobs.count() >= n, pool::toString);
            assertEquals(n, injected.count());
            Poll.until("busy time counted", () -> busy.count() > busyBefore, pool::toString);
            assertEquals(2, registry.get("forage.pool.threads").gauge().value());
            for (String state : new String[] {"active", "idle", "sleeping"}) {
                Gauge g = registry.get("forage.pool.workers").tag("state", state).gauge();
                assertTrue(g.value() >= 0 && g.value() <= 2, state + " " + g.value());
            }
        }
    }

    @Test
    void blockingGaugesFollowTheSections() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ForagePool pool = ForagePool.builder().threads(1).name("metrics-blocking").build()) {
            new ForagePoolMetrics(pool).bindTo(registry);
            Gauge blocked = registry.get("forage.pool.blocking").tag("state", "blocked").gauge();
            Gauge compensating = registry.get("forage.pool.blocking").tag("state", "compensating").gauge();
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    ForagePool.managedBlock(() -> {
                        entered.countDown();
                        gate.await();
                        return null;
                    });
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            entered.await();
            assertEquals(1, blocked.value());
            assertEquals(1, compensating.value());
            gate.countDown();
            Poll.until("section ended", () -> blocked.value() == 0 && compensating.value() == 0, pool::toString);
            assertEquals(1, registry.get("forage.pool.blocking.sections").functionCounter().count());
        }
    }

    @Test
    void queueGaugesFollowTheInjector() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ForagePool pool = ForagePool.builder().singleThreaded().name("metrics-queued").build()) {
            new ForagePoolMetrics(pool).bindTo(registry);
            Gauge injector = registry.get("forage.pool.queued").tags("pool", "metrics-queued", "queue", "injector")
                    .gauge();
            Gauge deques = registry.get("forage.pool.queued").tag("queue", "deques").gauge();
            for (int i = 0; i < 4; i++) {
                pool.execute(() -> { });
            }
            assertEquals(4, injector.value());
            assertEquals(0, deques.value());
            pool.runPending();
            assertEquals(0, injector.value());
        }
    }

    @Test
    void queueWaitTimerAndPercentilesOfTheWaitsSinceTheGaugesLastReading() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ForagePool pool = ForagePool.builder().singleThreaded().name("metrics-wait").build()) {
            new ForagePoolMetrics(pool).bindTo(registry);
            FunctionTimer timer = registry.get("forage.pool.queue.wait").functionTimer();
            Gauge p50 = registry.get("forage.pool.queue.wait.percentile").tag("percentile", "p50").gauge();
            Gauge p99 = registry.get("forage.pool.queue.wait.percentile").tag("percentile", "p99").gauge();
            assertTrue(Double.isNaN(p50.value()), "no job started yet");
            for (int i = 0; i < 64 * 100; i++) {
                pool.execute(() -> { });
            }
            long queued = System.nanoTime();
            long heldNanos = TimeUnit.MILLISECONDS.toNanos(20);
            while (System.nanoTime() - queued < heldNanos) {
                LockSupport.parkNanos(heldNanos); // the wait measured: the jobs run only when runPending is called
            }
            pool.runPending();
            long samples = pool.statistics().queueWait().samples();
            assertTrue(samples > 0, "about 100 of 6,400 jobs sampled");
            assertEquals(samples, timer.count());
            assertTrue(timer.totalTime(TimeUnit.NANOSECONDS) >= samples * (double) heldNanos, timer.toString());
            double median = p50.value(); // each reading ends the gauge's window: read once
            double high = p99.value();
            assertTrue(median >= heldNanos / 1e9, "p50 " + median);
            assertTrue(high >= median, "p99 " + high + " below p50 " + median);
            assertTrue(Double.isNaN(p50.value()), "no job started since the previous reading");
        }
    }

    @Test
    void nullsAreRefused() {
        assertThrows(NullPointerException.class, () -> new ForagePoolMetrics(null));
        try (ForagePool pool = ForagePool.builder().singleThreaded().build()) {
            assertThrows(NullPointerException.class, () -> new ForagePoolMetrics(pool, null));
        }
    }
}
