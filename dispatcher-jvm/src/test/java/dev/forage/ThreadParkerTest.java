package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.testing.Watchdog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The {@link Parker} contract the sleep protocol relies on, for the default parker. */
@Watchdog.Budget(seconds = 60)
class ThreadParkerTest {
    @Test
    void anUnparkBeforeTheParkIsAPermitThatEndsItAtOnce() {
        // Without the permit this park would last forever and the watchdog would fail the test.
        Parker parker = new ThreadParker();
        parker.bindCurrentThread();
        parker.unpark();
        parker.park(Parker.FOREVER);
    }

    @Test
    void anUnparkReachesTheThreadBoundLast() throws Exception {
        Parker parker = new ThreadParker();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch bound = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            parker.bindCurrentThread();
            bound.countDown();
            while (!stop.get()) {
                parker.park(Parker.FOREVER); // parks in a loop, as every caller must
            }
            done.countDown();
        });
        sleeper.start();
        bound.await();
        stop.set(true);
        parker.unpark();
        done.await();
        sleeper.join();
        assertEquals(Thread.State.TERMINATED, sleeper.getState());
    }
}
