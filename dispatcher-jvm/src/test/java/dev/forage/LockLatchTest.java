package dev.forage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.forage.testing.Poll;
import dev.forage.testing.Watchdog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The latch of threads outside the pool: blocking, timeouts and interrupts. */
@Watchdog.Budget(seconds = 60)
class LockLatchTest {
    @Test
    void timedAwaitReturnsFalseWhenNotSet() throws InterruptedException {
        LockLatch latch = new LockLatch();
        assertFalse(latch.await(0, TimeUnit.NANOSECONDS));
        assertFalse(latch.await(20, TimeUnit.MILLISECONDS));
        assertFalse(latch.await(-5, TimeUnit.MILLISECONDS));
        assertFalse(latch.probe());
    }

    @Test
    void everyAwaitReturnsAtOnceOnceSet() throws InterruptedException {
        LockLatch latch = new LockLatch();
        latch.set();
        assertTrue(latch.probe());
        assertTrue(latch.await(0, TimeUnit.NANOSECONDS));
        latch.await();
        latch.awaitUninterruptibly();
        latch.set(); // idempotent
        assertTrue(latch.probe());
    }

    @Test
    void aSetFromAnotherThreadReleasesEveryKindOfWait() throws Exception {
        for (int kind = 0; kind < 3; kind++) {
            LockLatch latch = new LockLatch();
            AtomicBoolean result = new AtomicBoolean();
            int k = kind;
            Thread waiter = new Thread(() -> {
                try {
                    if (k == 0) {
                        latch.await();
                        result.set(true);
                    } else if (k == 1) {
                        result.set(latch.await(1, TimeUnit.HOURS));
                    } else {
                        latch.awaitUninterruptibly();
                        result.set(true);
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            waiter.start();
            Poll.until("waiter blocked", () -> waiter.getState() == Thread.State.WAITING
                    || waiter.getState() == Thread.State.TIMED_WAITING, waiter::toString);
            latch.set();
            waiter.join();
            assertTrue(result.get(), "wait kind " + kind);
        }
    }

    @Test
    void awaitThrowsOnInterrupt() throws Exception {
        LockLatch latch = new LockLatch();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                latch.await();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        waiter.start();
        Poll.until("waiter blocked", () -> waiter.getState() == Thread.State.WAITING, waiter::toString);
        waiter.interrupt();
        waiter.join();
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
    }

    @Test
    void awaitUninterruptiblyKeepsTheInterrupt() throws Exception {
        LockLatch latch = new LockLatch();
        AtomicBoolean interruptedOnReturn = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            latch.awaitUninterruptibly();
            interruptedOnReturn.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        Poll.until("waiter blocked", () -> waiter.getState() == Thread.State.WAITING, waiter::toString);
        waiter.interrupt();
        // Still waiting: the interrupt must not end an uninterruptible wait.
        Poll.until("waiter saw the interrupt and waits again", () -> waiter.getState() == Thread.State.WAITING,
                waiter::toString);
        assertTrue(waiter.isAlive());
        latch.set();
        waiter.join();
        assertTrue(interruptedOnReturn.get(), "the interrupt must be re-asserted on return, never lost");
    }

    @Test
    void interruptedBeforeTimedAwaitThrows() {
        LockLatch latch = new LockLatch();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> latch.await(1, TimeUnit.SECONDS));
        } finally {
            Thread.interrupted();
        }
    }
}
