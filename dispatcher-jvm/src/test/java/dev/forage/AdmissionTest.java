package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a submission becomes before it is queued, for each way a pool can be built ({@link Admission}): the task
 * itself when the pool has neither a decorator nor sampling, and exactly the wrappers it was built with otherwise.
 */
@Watchdog.Budget(seconds = 120)
class AdmissionTest {
    /** Enough submissions that sampling on picks some: one in 64, so about 100 expected, 0 with odds of e^-100. */
    private static final int SUBMISSIONS = 64 * 100;

    @Test
    void aPoolWithNeitherDecoratorNorSamplingQueuesEachTaskAsItCame() {
        try (ForagePool pool = ForagePool.builder().threads(1).queueWaitSampling(false).name(Pools.uniqueName())
                .build()) {
            Registry r = pool.registry();
            for (int i = 0; i < SUBMISSIONS; i++) {
                Runnable task = () -> { };
                assertSame(task, r.admit(task, r.currentWorker()), "submission " + i + " was wrapped");
            }
        }
    }

    @Test
    void samplingOnWrapsSomeSubmissionsAndHidesItsWrapperFromTheirNames() {
        try (ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build()) {
            Registry r = pool.registry();
            int wrapped = 0;
            for (int i = 0; i < SUBMISSIONS; i++) {
                Runnable task = () -> { };
                Runnable queued = r.admit(task, r.currentWorker());
                if (queued != task) {
                    wrapped++;
                    assertSame(task, DecoratedJob.undecorated(QueueWaits.untimed(queued)), "the sample's wrapper hides the task");
                }
            }
            assertTrue(wrapped > 20 && wrapped < 250, wrapped + " of " + SUBMISSIONS + " sampled; about 100 expected");
        }
    }

    @Test
    void aDecoratorWithSamplingOffWrapsEveryTaskInTheDecoratorAlone() {
        AtomicInteger decorated = new AtomicInteger();
        ForageTaskDecorator decorator = task -> {
            decorated.incrementAndGet();
            return () -> task.run();
        };
        try (ForagePool pool = ForagePool.builder().threads(1).queueWaitSampling(false).taskDecorator(decorator)
                .name(Pools.uniqueName()).build()) {
            Registry r = pool.registry();
            for (int i = 0; i < SUBMISSIONS; i++) {
                Runnable task = () -> { };
                Runnable queued = r.admit(task, r.currentWorker());
                assertTrue(queued instanceof DecoratedJob, "submission " + i + " queued as " + queued.getClass());
                assertSame(task, DecoratedJob.undecorated(QueueWaits.untimed(queued)));
            }
            assertEquals(SUBMISSIONS, decorated.get());
        }
    }

    @Test
    void samplingOffRunsEverySubmissionAndLeavesTheHistogramEmpty() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).queueWaitSampling(false).name(Pools.uniqueName())
                .build()) {
            CountDownLatch ran = new CountDownLatch(SUBMISSIONS);
            for (int i = 0; i < SUBMISSIONS; i++) {
                pool.execute(ran::countDown);
            }
            Watchdog.awaitLatch("every submission ran", Watchdog.LIMIT, ran, pool::toString);
            assertEquals(0, pool.statistics().queueWait().samples(), pool.statistics().toString());
        }
    }

    /**
     * A worker's submissions are picked by its own countdown, whose gaps are random: about one in 64 again, and a
     * repeating pattern of submissions does not keep step with the picks. Here a job alternates two tasks; a fixed
     * gap of 64 (even) would time only one of them.
     */
    @Test
    void aWorkersSubmissionsArePickedAboutOneIn64AndNotInStepWithAPattern() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(1).name(Pools.uniqueName()).build()) {
            Registry r = pool.registry();
            Runnable even = () -> { };
            Runnable odd = () -> { };
            int[] wrapped = new int[2];
            CompletableFuture<Void> done = new CompletableFuture<>();
            pool.execute(() -> {
                try {
                    assertSame(r, Worker.current().registry, "admitted on this pool's worker");
                    for (int i = 0; i < SUBMISSIONS; i++) {
                        Runnable task = (i & 1) == 0 ? even : odd;
                        Runnable queued = r.admit(task, r.currentWorker());
                        if (queued != task) {
                            assertSame(task, QueueWaits.untimed(queued), "the sample's wrapper hides the task");
                            wrapped[i & 1]++;
                        }
                    }
                    done.complete(null);
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            });
            done.get(Watchdog.LIMIT.getSeconds(), TimeUnit.SECONDS);
            int all = wrapped[0] + wrapped[1];
            assertTrue(all > 20 && all < 250, all + " of " + SUBMISSIONS + " sampled; about 100 expected");
            // About 50 each; 5 or fewer of either has odds below 10^-12 with random gaps.
            assertTrue(wrapped[0] > 5 && wrapped[1] > 5, "even " + wrapped[0] + ", odd " + wrapped[1]);
        }
    }

    @Test
    void aGapIsAtLeastOneAndAveragesTheSamplingRate() {
        long sum = 0;
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            int gap = Admission.nextGap();
            assertTrue(gap >= 1 && gap < 2 * QueueWaitHistogram.SAMPLE_EVERY, "gap " + gap);
            sum += gap;
        }
        double mean = (double) sum / n;
        assertTrue(Math.abs(mean - QueueWaitHistogram.SAMPLE_EVERY) < 1, "mean gap " + mean);
    }

    @Test
    void samplingOnCountsSomeOfTheSameSubmissions() throws Exception {
        try (ForagePool pool = ForagePool.builder().threads(2).name(Pools.uniqueName()).build()) {
            CountDownLatch ran = new CountDownLatch(SUBMISSIONS);
            for (int i = 0; i < SUBMISSIONS; i++) {
                pool.execute(ran::countDown);
            }
            Watchdog.awaitLatch("every submission ran", Watchdog.LIMIT, ran, pool::toString);
            long samples = pool.statistics().queueWait().samples();
            assertTrue(samples > 20 && samples < 250, samples + " of " + SUBMISSIONS + " timed; about 100 expected");
        }
    }

    @Test
    void timersAndStructuredCallsAreDecoratedButNeverSampled() throws Exception {
        AtomicInteger decorated = new AtomicInteger();
        ForageTaskDecorator decorator = task -> {
            decorated.incrementAndGet();
            return task::run;
        };
        try (ForagePool pool = ForagePool.builder().threads(1).taskDecorator(decorator).name(Pools.uniqueName())
                .build()) {
            Registry r = pool.registry();
            Runnable task = () -> { };
            for (int i = 0; i < SUBMISSIONS; i++) {
                assertTrue(r.decorate(task) instanceof DecoratedJob, "decorate wraps in the decorator alone");
            }
            assertEquals(42, (int) pool.install(() -> 42));
            assertEquals(SUBMISSIONS + 1, decorated.get());
            CountDownLatch fired = new CountDownLatch(1);
            pool.schedule(fired::countDown, 1, TimeUnit.MILLISECONDS);
            Watchdog.awaitLatch("the timer fired", Watchdog.LIMIT, fired, pool::toString);
            assertEquals(SUBMISSIONS + 2, decorated.get());
            assertEquals(0, pool.statistics().queueWait().samples(), "no submission was made through execute");
        }
    }
}
