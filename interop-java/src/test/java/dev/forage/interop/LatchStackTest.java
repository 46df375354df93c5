package dev.forage.interop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.ForageLatch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The waiters' stack: release sets every remaining latch once; waiters that give up leave no trace. */
class LatchStackTest {
    @Test
    void releaseSetsTheLatchesOfEveryWaiterThatStayed() {
        LatchStack stack = new LatchStack();
        ForageLatch a = ForageLatch.forCurrentThread();
        ForageLatch b = ForageLatch.forCurrentThread();
        ForageLatch c = ForageLatch.forCurrentThread();
        stack.push(a);
        LatchStack.Node gaveUp = stack.push(b);
        stack.push(c);
        stack.remove(gaveUp);
        assertFalse(a.isSet() || b.isSet() || c.isSet());
        stack.releaseAll();
        assertTrue(stack.isReleased());
        assertTrue(a.isSet() && c.isSet());
        assertFalse(b.isSet(), "a waiter that gave up was still woken");
        ForageLatch late = ForageLatch.forCurrentThread();
        assertNull(stack.push(late), "a released stack must not keep late waiters");
        assertTrue(late.isSet(), "a late waiter must see the release at once");
        stack.releaseAll(); // idempotent
        stack.remove(gaveUp); // harmless after release
    }

    @Test
    void waitersThatGiveUpDoNotPileUp() {
        LatchStack stack = new LatchStack();
        ForageLatch stays = ForageLatch.forCurrentThread();
        stack.push(stays);
        for (int i = 0; i < 100_000; i++) { // a polling loop of timed gets
            stack.remove(stack.push(ForageLatch.forCurrentThread()));
        }
        List<ForageLatch> live = new ArrayList<>();
        ForageLatch probe = ForageLatch.forCurrentThread();
        LatchStack.Node node = stack.push(probe);
        for (LatchStack.Node n = node; n != null; n = n.next) {
            live.add(n.latch);
        }
        assertTrue(live.size() == 2 && live.contains(stays) && live.contains(probe), "nodes left: " + live.size());
    }
}
