package dev.forage.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import dev.forage.testing.Watchdog;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ConcurrentTaskExecutor;
import org.springframework.scheduling.concurrent.ConcurrentTaskScheduler;

/**
 * Spring: a Forage executor as the context's {@link TaskExecutor} (for {@code @Async}) and, through Spring's own
 * {@link ConcurrentTaskScheduler}, its {@link TaskScheduler} (for {@code @Scheduled}), in a plain
 * {@link AnnotationConfigApplicationContext}; closing the context shuts the pool down. docs/integrations.md, "Spring".
 */
@Watchdog.Budget(seconds = 60)
class SpringIntegrationTest {
    // snippet: docs/integrations.md, Spring configuration
    @Configuration
    @EnableAsync
    @EnableScheduling
    static class ForageConfig {
        /** The pool, owned by its executor; Spring calls close() when the context closes (shut down and wait). */
        @Bean(destroyMethod = "close")
        ForageExecutorService forageExecutor() {
            return ForageExecutorService.owning(ForagePool.builder().threads(2).name("spring").build());
        }

        /** {@code @Async} uses the Executor bean named "taskExecutor". */
        @Bean
        TaskExecutor taskExecutor(ForageExecutorService forageExecutor) {
            return new ConcurrentTaskExecutor(forageExecutor);
        }

        /** {@code @Scheduled} uses the TaskScheduler bean; delays wait in the pool's timers, not in a timer thread. */
        @Bean
        TaskScheduler taskScheduler(ForageExecutorService forageExecutor) {
            return new ConcurrentTaskScheduler(forageExecutor);
        }

        @Bean
        Reports reports() {
            return new Reports();
        }
    }
    // end snippet

    /**
     * A bean with an {@code @Async} method and a {@code @Scheduled} one; both record the pool they ran on. Spring
     * hands out a proxy of it (for {@code @Async}), so the tests read its state through methods.
     */
    static class Reports {
        private final Set<String> scheduledOn = ConcurrentHashMap.newKeySet();
        private final CountDownLatch ticks = new CountDownLatch(3);

        public Set<String> scheduledOn() {
            return scheduledOn;
        }

        public CountDownLatch ticks() {
            return ticks;
        }

        @Async
        public CompletableFuture<String> render(String name) {
            return CompletableFuture.completedFuture(name + " on " + poolName());
        }

        @Scheduled(fixedRate = 5)
        public void tick() {
            scheduledOn.add(poolName());
            ticks.countDown();
        }
    }

    private static String poolName() {
        ForagePool pool = ForagePool.current();
        return pool == null ? Thread.currentThread().getName() : pool.name();
    }

    @Test
    void asyncAndScheduledMethodsRunOnTheForagePoolAndCloseShutsItDown() throws Exception {
        ForageExecutorService executor;
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(ForageConfig.class)) {
            executor = context.getBean(ForageExecutorService.class);
            Reports reports = context.getBean(Reports.class);

            assertEquals("invoice on spring", reports.render("invoice").get(30, TimeUnit.SECONDS));

            assertTrue(reports.ticks().await(30, TimeUnit.SECONDS), "@Scheduled ran three times");
            assertEquals(Set.of("spring"), reports.scheduledOn(), "every @Scheduled run on the pool");
            assertFalse(executor.isShutdown());
        }
        assertTrue(executor.isShutdown(), "the context's close shut the executor down");
        assertTrue(executor.pool().isTerminated(), "close() waited for the pool's threads to end");
    }

    @Test
    void theTaskSchedulerRunsOneShotAndPeriodicTasksOnThePool() throws Exception {
        try (ForageExecutorService executor =
                     ForageExecutorService.owning(ForagePool.builder().threads(1).name("scheduler").build())) {
            TaskScheduler scheduler = new ConcurrentTaskScheduler(executor);

            CompletableFuture<ForagePool> once = new CompletableFuture<>();
            scheduler.schedule(() -> once.complete(ForagePool.current()), Instant.now().plusMillis(5));
            assertSame(executor.pool(), once.get(30, TimeUnit.SECONDS));

            CountDownLatch runs = new CountDownLatch(3);
            Set<String> pools = ConcurrentHashMap.newKeySet();
            ScheduledFuture<?> periodic = scheduler.scheduleAtFixedRate(() -> {
                pools.add(poolName());
                runs.countDown();
            }, Duration.ofMillis(5));
            assertTrue(runs.await(30, TimeUnit.SECONDS));
            periodic.cancel(false);
            assertEquals(Set.of("scheduler"), pools);
        }
    }
}
