package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Watchdog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The Chase-Lev deque, single-threaded semantics first, then owner against thieves. */
class WorkDequeTest {
    private final WorkDeque deque = new WorkDeque();

    private void pushRange(int from, int toExclusive) {
        for (int i = from; i < toExclusive; i++) {
            deque.push(new Job(i));
        }
    }

    /** The sleep protocol's "queue was empty" signal (newInternalJob) asked of the deque after a push. */
    @Test
    void afterAPushTheDequeSaysWhetherItHeldAnotherJob() {
        deque.push(new Job(1));
        assertTrue(deque.heldNoOtherJob(), "first push into an empty deque");
        deque.push(new Job(2));
        assertFalse(deque.heldNoOtherJob(), "one job was already there");
        deque.pop();
        deque.push(new Job(3));
        assertFalse(deque.heldNoOtherJob(), "job 1 is still there");
        deque.steal();
        deque.steal();
        assertTrue(deque.isEmpty());
        deque.push(new Job(4));
        assertTrue(deque.heldNoOtherJob(), "everything was stolen: empty again");
        for (int i = 5; i < 200; i++) {
            deque.push(new Job(i));
            assertFalse(deque.heldNoOtherJob(), "not empty, also across growth of the buffer");
        }
    }

    /**
     * A producer whose jobs a thief takes as they come: its pushes read {@code top} once in a batch of pushes, yet
     * it never overwrites a job not yet taken, never refuses one below the capacity, clears what thieves took, and
     * still refuses the job past the capacity.
     */
    @Test
    void aProducerThatReadsTopRarelyNeitherOverwritesNorRefusesEarly() {
        WorkDeque small = new WorkDeque(8, 4, 16);
        int next = 0;
        int taken = 0;
        for (int round = 0; round < 100; round++) {
            // Fill to the capacity with the thief idle, then let it take all but one: the owner's view of top is
            // stale by 15 jobs, and the next pushes must read top again instead of refusing.
            while (small.size() < 16) {
                small.push(new Job(next++));
            }
            assertThrows(RejectedExecutionException.class, () -> small.push(new Job(-1)), "the 17th job");
            for (int i = 0; i < 15; i++) {
                Runnable job = small.steal();
                assertEquals(taken++, Job.idOf(job), "thieves take the jobs oldest first, none lost or overwritten");
            }
        }
        while (!small.isEmpty()) {
            assertEquals(taken++, Job.idOf(small.steal()));
        }
        assertEquals(next, taken);
    }

    @Test
    void loneJobIndexNamesTheOnlyJobAndMovesWhenItIsTaken() {
        assertEquals(WorkDeque.NO_JOBS, deque.loneJobIndex(), "empty");
        deque.push(new Job(1));
        assertEquals(0L, deque.loneJobIndex(), "one job, at index 0");
        deque.push(new Job(2));
        assertEquals(WorkDeque.SEVERAL_JOBS, deque.loneJobIndex(), "two jobs are not a lone job");
        deque.pop();
        assertEquals(0L, deque.loneJobIndex(), "job 2 popped: job 1 is alone again, at the same index");
        deque.pop();
        deque.push(new Job(3));
        assertEquals(1L, deque.loneJobIndex(), "the owner took job 1 (the last-job CAS moved top): a new index");
        deque.push(new Job(4));
        assertEquals(3, Job.idOf(deque.steal()));
        assertEquals(2L, deque.loneJobIndex(), "a thief took the oldest: job 4 is alone, at the next index");
        deque.steal();
        assertEquals(WorkDeque.NO_JOBS, deque.loneJobIndex(), "empty again");
    }

    @Test
    void emptyDequeGivesNothing() {
        assertTrue(deque.isEmpty());
        assertEquals(0, deque.size());
        assertNull(deque.pop());
        assertNull(deque.steal(), "an uncontended steal of an empty deque is null, not RETRY");
        assertNull(deque.pop(), "a failed pop must leave the deque consistent");
        assertTrue(deque.isEmpty());
        deque.push(new Job(1));
        assertEquals(1, deque.size());
        assertEquals(1, Job.idOf(deque.pop()));
        assertTrue(deque.isEmpty());
    }

    @Test
    void popIsLifo() {
        pushRange(1, 6);
        assertEquals(5, deque.size());
        for (int expected = 5; expected >= 1; expected--) {
            assertEquals(expected, Job.idOf(deque.pop()));
        }
        assertNull(deque.pop());
    }

    @Test
    void stealIsFifo() {
        pushRange(1, 6);
        for (int expected = 1; expected <= 5; expected++) {
            Runnable r = deque.steal();
            assertNotSame(WorkDeque.RETRY, r, "nobody raced this steal");
            assertEquals(expected, Job.idOf(r));
        }
        assertNull(deque.steal());
        assertNull(deque.pop());
    }

    @Test
    void popAndStealMeetInTheMiddle() {
        pushRange(1, 5);
        assertEquals(1, Job.idOf(deque.steal()));
        assertEquals(4, Job.idOf(deque.pop()));
        assertEquals(2, Job.idOf(deque.steal()));
        assertEquals(3, Job.idOf(deque.pop()), "the last job goes to pop");
        assertNull(deque.pop());
        assertNull(deque.steal());
        pushRange(10, 12);
        assertEquals(10, Job.idOf(deque.steal()), "the deque keeps working after it was emptied both ways");
        assertEquals(11, Job.idOf(deque.pop()));
    }

    /**
     * The buffer must not keep stolen jobs reachable: when pop wins the last job, the slots that thieves took
     * before it are cleared too (they used to stay set until the ring wrapped around onto them).
     */
    @Test
    void poppingTheLastJobClearsTheSlotsThievesTook() {
        pushRange(0, 3);
        assertEquals(0, Job.idOf(deque.steal()));
        assertEquals(1, Job.idOf(deque.steal()));
        assertEquals(2, Job.idOf(deque.pop()), "the last job, won with the CAS");
        for (int i = 0; i < 3; i++) {
            assertNull(deque.buffer.get(i), "slot " + i + " still holds a job that already ran");
        }
    }

    @Test
    void aProducerThatNeverPopsDoesNotKeepStolenJobsReachable() {
        // The ring first grows to 1024 slots while nobody steals, as when a thief falls behind for a while.
        pushRange(0, 1000);
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, Job.idOf(deque.steal()));
        }
        // Then a producer that only pushes, with a thief that keeps up: every job but the newest is taken. A push
        // reads top (and clears) once in CLEAR_BATCH pushes, so the 1000 taken jobs are gone after that many pushes,
        // and from then on at most CLEAR_BATCH taken jobs wait to be cleared.
        for (int i = 1000; i < 5000; i++) {
            deque.push(new Job(i));
            assertEquals(i, Job.idOf(deque.steal()));
            int held = nonNullSlots();
            if (i >= 1000 + WorkDeque.CLEAR_BATCH) {
                assertTrue(held <= WorkDeque.CLEAR_BATCH + 1, "after push " + i + " the ring still holds " + held
                        + " jobs that thieves took; at most " + WorkDeque.CLEAR_BATCH + " may wait to be cleared");
            }
        }
    }

    /**
     * The push's clearing must stop short of the slots that alias live jobs in the ring: with the 64-slot ring
     * nearly full and 35 consumed slots not yet cleared, clearing every consumed index would null slots 0-18,
     * which hold jobs 64-82 after the wrap. A first version did, and the thieves then spun on a null slot whose
     * job was lost (a hang in the coroutine fib benchmark).
     */
    @Test
    void clearingOnPushNeverTouchesALiveJob() {
        pushRange(0, 63);
        for (int i = 0; i < 20; i++) {
            assertEquals(i, Job.idOf(deque.steal()));
        }
        pushRange(63, 83); // wraps: 63 jobs live in 64 slots, 20 consumed and not cleared
        for (int i = 20; i < 35; i++) {
            assertEquals(i, Job.idOf(deque.steal()));
        }
        deque.push(new Job(83)); // 35 consumed slots: this push clears
        for (int i = 35; i < 84; i++) {
            assertEquals(i, Job.idOf(deque.steal()), "job " + i + " after the clearing push");
        }
        assertTrue(deque.isEmpty());
    }

    /**
     * Sequential model check: long random runs of push, pop and steal against an {@link java.util.ArrayDeque},
     * biased so the ring runs nearly full, wraps and grows, with the clearing at every reachable lag.
     */
    @Test
    void randomRunsAgreeWithASequentialModel() {
        for (long seed = 1; seed <= 40; seed++) {
            java.util.Random random = new java.util.Random(seed);
            WorkDeque d = new WorkDeque();
            java.util.ArrayDeque<Integer> model = new java.util.ArrayDeque<>();
            int next = 0;
            for (int step = 0; step < 20_000; step++) {
                int op = random.nextInt(10);
                if (op < 5) {
                    d.push(new Job(next));
                    model.addLast(next++);
                } else if (op < 8) {
                    Integer expected = model.pollFirst();
                    Runnable got = d.steal();
                    assertEquals(expected == null ? -1 : expected, got == null ? -1 : Job.idOf(got),
                            "seed " + seed + ", step " + step + ": steal");
                } else {
                    Integer expected = model.pollLast();
                    Runnable got = d.pop();
                    assertEquals(expected == null ? -1 : expected, got == null ? -1 : Job.idOf(got),
                            "seed " + seed + ", step " + step + ": pop");
                }
            }
        }
    }

    private int nonNullSlots() {
        int n = 0;
        for (int i = 0; i < deque.buffer.length(); i++) {
            if (deque.buffer.get(i) != null) {
                n++;
            }
        }
        return n;
    }

    @Test
    void growsPastTheInitialCapacityKeepingOrder() {
        pushRange(0, 1000); // 64 -> 1024: four doublings
        assertEquals(1000, deque.size());
        for (int i = 999; i >= 500; i--) {
            assertEquals(i, Job.idOf(deque.pop()));
        }
        for (int i = 0; i < 500; i++) {
            assertEquals(i, Job.idOf(deque.steal()));
        }
        assertTrue(deque.isEmpty());
    }

    @Test
    void growsWhileTheRingHasWrapped() {
        // Move top and bottom far from index 0 so the live jobs straddle the end of the ring when it grows.
        for (int round = 0; round < 3; round++) {
            pushRange(0, 50);
            for (int i = 0; i < 50; i++) {
                assertEquals(i, Job.idOf(deque.steal()));
            }
        }
        pushRange(1000, 1100); // starts near the ring's end, wraps, then grows
        for (int i = 1000; i < 1040; i++) {
            assertEquals(i, Job.idOf(deque.steal()));
        }
        pushRange(1100, 1300);
        for (int i = 1299; i >= 1100; i--) {
            assertEquals(i, Job.idOf(deque.pop()));
        }
        for (int i = 1040; i < 1100; i++) {
            assertEquals(i, Job.idOf(deque.steal()));
        }
        assertNull(deque.pop());
    }

    @Test
    void growsFarBeyondAndKeepsEveryJobExactlyOnce() {
        int n = 300_000;
        pushRange(0, n);
        int[] seen = new int[n];
        for (int i = 0; i < n / 3; i++) {
            seen[Job.idOf(deque.steal())]++;
        }
        Runnable r;
        while ((r = deque.pop()) != null) {
            seen[Job.idOf(r)]++;
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, seen[i], "job " + i);
        }
    }

    @Test
    void retryIsAMarkerThatCannotRun() {
        IllegalStateException e = assertThrows(IllegalStateException.class, WorkDeque.RETRY::run);
        assertTrue(e.getMessage().contains("marker"), e.getMessage());
        assertEquals("WorkDeque.RETRY", WorkDeque.RETRY.toString());
    }

    /**
     * The owner pushes and pops while thieves steal (RETRY means "lost a race, try again"): every job is taken
     * exactly once, and a RETRY is never confused with a job.
     */
    @Test
    @Watchdog.Budget(seconds = 90)
    void ownerAndThievesTakeEveryJobExactlyOnce() throws Exception {
        int n = Boolean.getBoolean("forage.stress.long") ? 5_000_000 : 500_000;
        int thieves = 3;
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicBoolean ownerDone = new AtomicBoolean();
        AtomicLong retries = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < thieves; t++) {
            Thread thief = new Thread(() -> {
                try {
                    start.await();
                    while (true) {
                        Runnable r = deque.steal();
                        if (r == WorkDeque.RETRY) {
                            retries.incrementAndGet();
                        } else if (r != null) {
                            taken.incrementAndGet(Job.idOf(r));
                        } else if (ownerDone.get() && deque.isEmpty()) {
                            return;
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "thief-" + t);
            thief.start();
            threads.add(thief);
        }
        start.countDown();
        // Bursts of pushes of varying size, each followed by some pops: the deque empties and grows often,
        // and the last item is raced between pop and steal many times.
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        int next = 0;
        while (next < n) {
            int burst = Math.min(n - next, 1 + random.nextInt(200));
            for (int i = 0; i < burst; i++) {
                deque.push(new Job(next++));
            }
            int pops = random.nextInt(burst + 2);
            for (int i = 0; i < pops; i++) {
                Runnable r = deque.pop();
                if (r == null) {
                    break;
                }
                taken.incrementAndGet(Job.idOf(r));
            }
        }
        Runnable r;
        while ((r = deque.pop()) != null) {
            taken.incrementAndGet(Job.idOf(r));
        }
        ownerDone.set(true);
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), failures.toString());
        for (int i = 0; i < n; i++) {
            if (taken.get(i) != 1) {
                throw new AssertionError("job " + i + " was taken " + taken.get(i) + " times (retries seen: "
                        + retries.get() + ")");
            }
        }
        assertTrue(deque.isEmpty());
        assertNull(deque.steal());
        assertEquals(0, deque.size());
    }
}
