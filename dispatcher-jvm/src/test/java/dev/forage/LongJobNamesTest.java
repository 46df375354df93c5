package dev.forage;

import static dev.forage.testing.LongJobRecording.naming;
import static dev.forage.testing.LongJobRecording.pool;
import static dev.forage.testing.LongJobRecording.record;
import static dev.forage.testing.LongJobRecording.runLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.forage.testing.LongJobRecording;
import dev.forage.testing.Watchdog;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * JFR's {@code dev.forage.LongJob} names the user's code behind the pool's own wrappers ({@link TaskWrapper}):
 * a join half, a scope's spawned job, the body of a call from outside, a timer, a decorated task, a user's own
 * wrapper. Each pool here has a 20 ms threshold and each user task runs 60 ms.
 */
@Watchdog.Budget(seconds = 120)
class LongJobNamesTest {
    /** The second half of a join, stolen by the other worker while the first waits for it to start. */
    private static final class SlowHalf implements Computation<String> {
        final CountDownLatch started = new CountDownLatch(1);

        @Override
        public String compute() {
            started.countDown();
            runLong();
            return "b";
        }
    }

    private static final class SlowWork implements Runnable {
        @Override
        public void run() {
            runLong();
        }
    }

    /** A user's own wrapper: the event should name what it wraps. */
    private static final class Retrying implements Runnable, TaskWrapper {
        private final Runnable task;

        Retrying(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }

        @Override
        public Object wrappedTask() {
            return task;
        }
    }

    /** A broken wrapper: names itself, and the pool must not care. */
    private static final class SelfWrapping implements Runnable, TaskWrapper {
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public void run() {
            runLong();
            done.countDown();
        }

        @Override
        public Object wrappedTask() {
            return this;
        }
    }

    @Test
    void aRawRunnableIsNamedByItsOwnClassWithNoWrapper() throws Exception {
        ForagePool pool = pool(Pools.uniqueName(), 2);
        CountDownLatch done = new CountDownLatch(1);
        Runnable job = () -> {
            runLong();
            done.countDown();
        };
        List<RecordedEvent> events = record(pool, () -> {
            pool.execute(job);
            done.await();
        });
        RecordedEvent e = naming(events, job.getClass().getName());
        assertNull(e.getString("wrapperClass"), "a raw Runnable has no wrapper");
        assertNull(e.getString("coroutineName"));
    }

    @Test
    void aCallFromOutsideIsNamedByItsBody() throws Exception {
        ForagePool pool = pool(Pools.uniqueName(), 2);
        Computation<String> body = () -> {
            runLong();
            return "done";
        };
        List<RecordedEvent> events = record(pool, () -> assertEquals("done", pool.install(body)));
        RecordedEvent e = naming(events, body.getClass().getName());
        assertEquals("dev.forage.StackJob", e.getString("wrapperClass"), LongJobRecording.describe(events));
    }

    @Test
    void aStolenJoinHalfIsNamedByItsComputation() throws Exception {
        ForagePool pool = pool(Pools.uniqueName(), 2);
        SlowHalf b = new SlowHalf();
        List<RecordedEvent> events = record(pool, () -> pool.install(() -> pool.join(() -> {
            // Hold the first half until the other worker stole and started the second: b then runs as its own
            // job on that worker, not inline here.
            Pools.awaitQuietly(b.started);
            return "a";
        }, b)));
        RecordedEvent half = naming(events, SlowHalf.class.getName());
        assertEquals("dev.forage.StackJob", half.getString("wrapperClass"));
    }

    @Test
    void aScopeSpawnIsNamedByTheSpawnedTask() throws Exception {
        ForagePool pool = pool(Pools.uniqueName(), 2);
        List<RecordedEvent> events = record(pool, () -> pool.scope(s -> {
            s.spawn(new SlowWork());
            return null;
        }));
        RecordedEvent spawned = naming(events, SlowWork.class.getName());
        assertEquals("dev.forage.Scope$ScopeJob", spawned.getString("wrapperClass"));
    }

    @Test
    void aTimerADecoratedTaskAndAUserWrapperAreNamedByTheTaskInside() throws Exception {
        ForagePool pool = ForagePool.builder().name(Pools.uniqueName()).threads(2)
                .longJobThreshold(LongJobRecording.THRESHOLD_MILLIS, TimeUnit.MILLISECONDS)
                .taskDecorator(task -> () -> task.run())
                .build();
        CountDownLatch ran = new CountDownLatch(3);
        Runnable retried = () -> {
            runLong();
            ran.countDown();
        };
        List<RecordedEvent> events = record(pool, () -> {
            pool.schedule(new Retrying(retried), 1, TimeUnit.MILLISECONDS);
            pool.execute(new SlowWork());
            pool.execute(ran::countDown);
            pool.execute(ran::countDown);
            ran.await();
        });
        RecordedEvent decorated = naming(events, SlowWork.class.getName());
        assertEquals("dev.forage.DecoratedJob", decorated.getString("wrapperClass"));
        RecordedEvent timer = naming(events, retried.getClass().getName());
        // The pool's timer holds the decorated job, which holds the user's wrapper, which holds the lambda.
        assertEquals("dev.forage.PoolTimers$PoolTimer", timer.getString("wrapperClass"));
    }

    @Test
    void aWrapperThatWrapsItselfIsNamedAsItselfAndThePoolGoesOn() throws Exception {
        ForagePool pool = pool(Pools.uniqueName(), 2);
        SelfWrapping job = new SelfWrapping();
        CountDownLatch after = new CountDownLatch(1);
        List<RecordedEvent> events = record(pool, () -> {
            pool.execute(job);
            job.done.await();
            pool.execute(after::countDown);
            after.await();
        });
        RecordedEvent e = naming(events, SelfWrapping.class.getName());
        assertNull(e.getString("wrapperClass"));
    }
}
