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
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
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
    void nullsAreRefused() {
        assertThrows(NullPointerException.class, () -> new ForagePoolMetrics(null));
        try (ForagePool pool = ForagePool.builder().singleThreaded().build()) {
            assertThrows(NullPointerException.class, () -> new ForagePoolMetrics(pool, null));
        }
    }
}
