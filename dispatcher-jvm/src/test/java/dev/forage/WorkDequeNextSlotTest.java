package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The deque's next slot (Tokio's LIFO slot, Go's {@code runnext}), single-threaded: which job the owner and a
 * thief take, what a push does to the slot's job, and what the sleep protocol and the lone-job rule read. The
 * races are in {@code WorkDequeLincheckTest} and the jcstress test {@code DequeNextSlotRace}.
 */
class WorkDequeNextSlotTest {
    private final WorkDeque deque = new WorkDeque();

    private static int id(Runnable r) {
        return Job.idOf(r);
    }

    @Test
    void theOwnerTakesTheSlotsJobFirstAndThenTheRingsNewest() {
        deque.push(new Job(1));
        deque.push(new Job(2));
        deque.pushNext(new Job(3));
        assertFalse(deque.heldNoOtherJob(), "the ring held jobs");
        deque.pushNext(new Job(4));
        assertFalse(deque.heldNoOtherJob(), "the slot is taken: job 4 goes to the ring");
        assertEquals(4, deque.size());
        assertEquals(3, id(deque.pop()), "the slot first");
        assertEquals(4, id(deque.pop()), "then the ring's newest");
        assertEquals(2, id(deque.pop()));
        assertEquals(1, id(deque.pop()));
        assertNull(deque.pop());
        assertTrue(deque.isEmpty());
    }

    @Test
    void thievesTakeTheOldestJobCountingTheSlotsJobByWhenItWasPut() {
        deque.push(new Job(1));
        deque.pushNext(new Job(2)); // after job 1, before job 3
        deque.pushNext(new Job(3));
        assertEquals(1, id(deque.steal()), "job 1 is older than the slot's job");
        assertEquals(2, id(deque.steal()), "then the slot's job, older than job 3");
        assertEquals(3, id(deque.steal()));
        assertNull(deque.steal());
    }

    @Test
    void aLoneJobInTheSlotIsStealableAndSaysSoToTheSleepProtocol() {
        deque.pushNext(new Job(1));
        assertTrue(deque.heldNoOtherJob(), "the deque was empty");
        assertFalse(deque.isEmpty(), "the final check before sleeping must see the slot's job");
        assertEquals(1, deque.size());
        assertEquals(1, id(deque.steal()));
        assertTrue(deque.isEmpty());
        assertNull(deque.pop(), "a thief took it: the owner finds nothing");
    }

    @Test
    void pushMovesTheSlotsJobIntoTheRingSoThePushedJobIsTheOwnersNext() {
        deque.pushNext(new Job(1));
        deque.push(new Job(2));
        assertFalse(deque.heldNoOtherJob(), "the slot held a job");
        assertEquals(2, id(deque.pop()), "a join takes its second half back first");
        assertEquals(1, id(deque.pop()));
        deque.pushNext(new Job(3));
        deque.push(new Job(4));
        assertEquals(3, id(deque.steal()), "moved into the ring below job 4: still the oldest for thieves");
    }

    @Test
    void theFloorForNewJobsLeavesTheSlotsEarlierJobBelowIt() {
        deque.push(new Job(1));
        deque.pushNext(new Job(2)); // pushed before the scope starts: not one of its jobs
        long floor = deque.floorForNewJobs();
        deque.pushNext(new Job(3)); // the scope's jobs
        deque.pushNext(new Job(4));
        assertEquals(3, id(deque.popAbove(floor)));
        assertEquals(4, id(deque.popAbove(floor)));
        assertNull(deque.popAbove(floor), "jobs 1 and 2 were there before the floor");
        assertEquals(2, deque.size());
    }

    @Test
    void popAboveTakesNothingBelowTheFloorWhenAThiefTookTheSlotsJob() {
        deque.push(new Job(1));
        long floor = deque.floorForNewJobs();
        deque.pushNext(new Job(2));
        assertEquals(1, id(deque.steal()), "the oldest");
        assertEquals(2, id(deque.steal()), "the slot's job, now the oldest");
        deque.push(new Job(5)); // below a new floor: a job the scope's wait must not take
        long floor2 = deque.floorForNewJobs();
        assertNull(deque.popAbove(floor2));
        assertEquals(5, id(deque.popAbove(floor)), "above the first floor");
    }

    @Test
    void theSlotCountsTowardsTheCapacityAndARefusalChangesNothing() {
        WorkDeque small = new WorkDeque(64, WorkDeque.CLEAR_BATCH, 64);
        for (int i = 0; i < 63; i++) {
            small.push(new Job(i));
        }
        small.pushNext(new Job(63));
        assertEquals(64, small.size());
        assertThrows(RejectedExecutionException.class, () -> small.pushNext(new Job(-1)));
        assertThrows(RejectedExecutionException.class, () -> small.push(new Job(-2)));
        assertEquals(64, small.size());
        assertEquals(63, id(small.pop()), "the slot's job is still there");
        for (int i = 62; i >= 0; i--) {
            assertEquals(i, id(small.pop()));
        }
        WorkDeque full = new WorkDeque(64, WorkDeque.CLEAR_BATCH, 64);
        for (int i = 0; i < 64; i++) {
            full.push(new Job(i));
        }
        assertThrows(RejectedExecutionException.class, () -> full.pushNext(new Job(-3)), "full ring, empty slot");
        assertEquals(64, full.size());
    }

    @Test
    void aLoneJobInTheSlotGetsANewTagEachTimeAJobIsPutThere() {
        deque.pushNext(new Job(1));
        long index = deque.loneJobIndex();
        int tag = deque.nextSlotTag();
        assertTrue(index >= 0, "one job: a lone job");
        deque.pop();
        deque.pushNext(new Job(2));
        assertEquals(index, deque.loneJobIndex(), "the ring did not move: the same index");
        assertNotEquals(tag, deque.nextSlotTag(), "but another job, which the lone-job rule must not take at once");
        deque.pushNext(new Job(3));
        assertEquals(WorkDeque.SEVERAL_JOBS, deque.loneJobIndex(), "the slot's job and one in the ring");
        assertEquals(index, deque.oldestIndex(), "job 3 sits where a producer's next job would: the ring's top");
    }
}
