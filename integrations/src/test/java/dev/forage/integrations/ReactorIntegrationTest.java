package dev.forage.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForagePool;
import dev.forage.interop.ForageExecutorService;
import dev.forage.testing.Watchdog;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Reactor: a Forage executor as a Reactor {@link Scheduler} through {@code Schedulers.fromExecutorService}; the
 * operators that take a scheduler run their work on Forage's workers. docs/integrations.md, "Reactor".
 */
@Watchdog.Budget(seconds = 60)
class ReactorIntegrationTest {
    private ForageExecutorService executor;
    private Scheduler forage;

    @BeforeEach
    void start() {
        // snippet: docs/integrations.md, Reactor scheduler
        executor = ForageExecutorService.owning(ForagePool.builder().threads(2).name("reactor").build());
        forage = Schedulers.fromExecutorService(executor, "forage");
        // end snippet
    }

    @AfterEach
    void stop() {
        forage.dispose();
        executor.close();
    }

    /** The pool running the calling thread, by name, or the thread's name when it is not a Forage worker. */
    private static String where() {
        ForagePool pool = ForagePool.current();
        return pool == null ? "not Forage: " + Thread.currentThread().getName() : pool.name();
    }

    @Test
    void publishOnSubscribeOnAndParallelRunOnUseForageWorkers() {
        List<String> published = Flux.range(1, 100).publishOn(forage).map(i -> where()).collectList()
                .block(Duration.ofSeconds(30));
        assertEquals(Set.of("reactor"), Set.copyOf(published), "publishOn: every element on the pool");

        String subscribed = Mono.fromCallable(ReactorIntegrationTest::where).subscribeOn(forage)
                .block(Duration.ofSeconds(30));
        assertEquals("reactor", subscribed, "subscribeOn: the source ran on the pool");

        List<String> rails = Flux.range(1, 1000).parallel(2).runOn(forage).map(i -> where()).sequential()
                .collectList().block(Duration.ofSeconds(30));
        assertEquals(1000, rails.size());
        assertEquals(Set.of("reactor"), Set.copyOf(rails), "parallel().runOn: every rail on the pool");
    }

    @Test
    void delaysAreTimedByThePoolItself() {
        // The executor is a ScheduledExecutorService, so Reactor schedules delays on it: the pool's own timers.
        String fired = Mono.delay(Duration.ofMillis(5), forage).map(tick -> where()).block(Duration.ofSeconds(30));
        assertEquals("reactor", fired);
        List<String> ticks = Flux.interval(Duration.ofMillis(2), forage).take(5).map(tick -> where())
                .collectList().block(Duration.ofSeconds(30));
        assertEquals(Set.of("reactor"), Set.copyOf(ticks));
    }

    @Test
    void forageWorkersAreNotReactorsNonBlockingThreads() throws Exception {
        // Schedulers.parallel() marks its threads non-blocking, and block() there throws; Forage's threads carry no
        // such mark, so block() is allowed on them (and blocks the worker unless inside ForageBlocking).
        CompletableFuture<String> onForage = new CompletableFuture<>();
        executor.execute(() -> onForage.complete(Schedulers.isInNonBlockingThread() + " "
                + Mono.delay(Duration.ofMillis(1)).thenReturn("blocked").block()));
        assertEquals("false blocked", onForage.get(30, TimeUnit.SECONDS));

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Mono.just(1).publishOn(Schedulers.parallel()).map(i -> Mono.delay(Duration.ofMillis(1)).thenReturn(i).block())
                        .block(Duration.ofSeconds(30)));
        assertTrue(refused.getMessage().contains("block()/blockFirst()/blockLast() are blocking"),
                refused.getMessage());
    }

    @Test
    void disposingTheSchedulerShutsItsExecutorDownSoAViewKeepsASharedPool() throws Exception {
        ForageExecutorService view = ForageExecutorService.viewOf(executor.pool());
        Scheduler viewScheduler = Schedulers.fromExecutorService(view, "forage-view");
        assertEquals("reactor", Mono.fromCallable(ReactorIntegrationTest::where).subscribeOn(viewScheduler)
                .block(Duration.ofSeconds(30)));
        viewScheduler.dispose();
        assertTrue(view.isShutdown(), "Reactor's dispose() shut the view down");
        assertFalse(executor.pool().isShutdown(), "the pool behind the view keeps running");

        forage.dispose();
        assertTrue(executor.isShutdown(), "disposing a scheduler over an owning executor shuts the pool down");
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
    }
}
