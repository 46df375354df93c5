package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The timer heap: deadline order, FIFO ties, cancellation that removes at once, and the watch. */
class TimerQueueTest {
    private final TimerQueue queue = new TimerQueue();

    private TimerTask add(long deadline) {
        TimerTask t = new TimerTask(() -> { }, deadline);
        queue.add(t);
        return t;
    }

    @Test
    void emptyQueue() {
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        assertEquals(TimerQueue.NO_DEADLINE, queue.earliestDeadline());
        assertNull(queue.pollExpired(Long.MAX_VALUE - 1));
        assertTrue(queue.drainPending().isEmpty());
    }

    @Test
    void addReportsWhetherTheTimerIsNowTheEarliest() {
        assertTrue(queue.add(new TimerTask(() -> { }, 100)));
        assertFalse(queue.add(new TimerTask(() -> { }, 200)));
        assertFalse(queue.add(new TimerTask(() -> { }, 100)), "a tie is not earlier: it fires after the first");
        assertTrue(queue.add(new TimerTask(() -> { }, 50)));
        assertEquals(50, queue.earliestDeadline());
        assertEquals(4, queue.size());
    }

    @Test
    void pollExpiredReturnsOnlyDueTimersInDeadlineOrder() {
        TimerTask t30 = add(30);
        TimerTask t10 = add(10);
        TimerTask t50 = add(50);
        TimerTask t20 = add(20);
        assertNull(queue.pollExpired(9), "nothing is due before 10");
        assertEquals(List.of(t10, t20, t30), queue.pollExpired(30), "a deadline equal to now is due");
        assertEquals(50, queue.earliestDeadline());
        assertEquals(1, queue.size());
        assertTrue(t10.hasFired() && t20.hasFired() && t30.hasFired());
        assertFalse(t50.hasFired());
        assertEquals(List.of(t50), queue.pollExpired(1000));
        assertTrue(queue.isEmpty());
    }

    @Test
    void equalDeadlinesFireInTheOrderTheyWereAdded() {
        List<TimerTask> expected = new ArrayList<>();
        TimerTask late = add(20);
        for (int i = 0; i < 40; i++) {
            expected.add(add(10));
        }
        TimerTask early = add(5);
        expected.add(0, early);
        expected.add(late);
        assertEquals(expected, queue.pollExpired(20));
    }

    @Test
    void cancelRemovesTheTimerAtOnce() {
        TimerTask a = add(10);
        TimerTask b = add(20);
        TimerTask c = add(30);
        assertTrue(b.cancel());
        assertEquals(2, queue.size(), "a cancelled timer must not stay in the heap");
        assertTrue(b.isCancelled());
        assertFalse(b.cancel(), "cancelling twice reports false");
        assertTrue(a.cancel());
        assertEquals(30, queue.earliestDeadline(), "cancelling the earliest moves the earliest deadline");
        assertEquals(List.of(c), queue.pollExpired(100));
        assertFalse(c.cancel(), "a fired timer cannot be cancelled");
        assertTrue(c.hasFired());
        assertFalse(c.isCancelled());
        assertTrue(queue.isEmpty());
    }

    @Test
    void cancellingTheLastTimerEmptiesTheQueue() {
        TimerTask a = add(10);
        assertTrue(a.cancel());
        assertTrue(queue.isEmpty());
        assertEquals(TimerQueue.NO_DEADLINE, queue.earliestDeadline());
        assertNull(queue.pollExpired(100));
    }

    @Test
    void randomAddsAndCancelsKeepTheHeapOrdered() {
        SplittableRandom random = new SplittableRandom(7);
        List<TimerTask> live = new ArrayList<>();
        java.util.Map<TimerTask, Integer> addedAt = new java.util.IdentityHashMap<>();
        for (int i = 0; i < 3000; i++) {
            TimerTask t = add(random.nextInt(500));
            addedAt.put(t, i);
            live.add(t);
            if (random.nextInt(3) == 0) {
                TimerTask victim = live.remove(random.nextInt(live.size()));
                assertTrue(victim.cancel());
            }
        }
        assertEquals(live.size(), queue.size());
        List<TimerTask> expected = new ArrayList<>(live);
        // Deadline order, ties in the order they were added.
        expected.sort((x, y) -> x.deadlineNanos() != y.deadlineNanos()
                ? Long.compare(x.deadlineNanos(), y.deadlineNanos())
                : Integer.compare(addedAt.get(x), addedAt.get(y)));
        List<TimerTask> fired = new ArrayList<>();
        for (long now = 0; now < 500; now += 37) {
            List<TimerTask> due = queue.pollExpired(now);
            if (due != null) {
                for (TimerTask t : due) {
                    assertTrue(t.deadlineNanos() <= now, "fired early");
                }
                fired.addAll(due);
            }
        }
        List<TimerTask> rest = queue.pollExpired(500);
        if (rest != null) {
            fired.addAll(rest);
        }
        assertEquals(expected, fired);
        assertTrue(queue.isEmpty());
    }

    @Test
    void deadlinesCompareAcrossNanoTimeOverflow() {
        // System.nanoTime() may be near Long.MAX_VALUE: deadlines are compared by difference, not by value.
        long near = Long.MAX_VALUE - 100;
        TimerTask wrapped = add(near + 200); // overflows to a negative value, but is later
        TimerTask first = add(near);
        assertEquals(List.of(first), queue.pollExpired(near + 50));
        assertEquals(List.of(wrapped), queue.pollExpired(near + 250));
    }

    @Test
    void drainPendingReturnsEveryPendingTimerAndMarksThem() {
        TimerTask a = add(10);
        TimerTask b = add(5);
        TimerTask cancelled = add(7);
        cancelled.cancel();
        List<TimerTask> drained = new ArrayList<>(queue.drainPending());
        drained.sort((x, y) -> Long.compare(x.deadlineNanos(), y.deadlineNanos()));
        assertEquals(List.of(b, a), drained);
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        assertFalse(a.cancel(), "a drained timer is no longer pending");
    }

    @Test
    void aCancelledTimerIsNeverReturnedByPollExpired() {
        TimerTask a = add(10);
        assertTrue(a.cancel());
        assertFalse(a.markFired(), "the queue's claim loses to a cancel");
        assertNull(queue.pollExpired(100));
    }

    @Test
    void theRunnableIsTheJob() {
        int[] ran = {0};
        Runnable job = () -> ran[0]++;
        TimerTask t = new TimerTask(job, 1);
        assertSame(job, t.job());
        t.run();
        assertEquals(1, ran[0]);
    }

    @Test
    void watchIsHeldByOneWorkerAtATime() {
        assertEquals(TimerQueue.NO_WATCHER, queue.watcher());
        assertTrue(queue.claimWatch(1));
        assertEquals(1, queue.watcher());
        assertFalse(queue.claimWatch(2), "worker 1 holds the watch");
        assertTrue(queue.claimWatch(1), "claiming again is a no-op that reports the holder");
        assertFalse(queue.releaseWatch(2), "only the holder releases");
        assertEquals(1, queue.watcher());
        assertTrue(queue.releaseWatch(1));
        assertFalse(queue.releaseWatch(1));
        assertEquals(TimerQueue.NO_WATCHER, queue.watcher());
        assertTrue(queue.claimWatch(2));
        assertEquals(2, queue.watcher());
    }

    @Test
    void growsBeyondItsInitialArray() {
        List<TimerTask> tasks = new ArrayList<>();
        for (int i = 100; i > 0; i--) {
            tasks.add(add(i));
        }
        Collections.reverse(tasks);
        assertEquals(tasks, queue.pollExpired(100));
    }
}
