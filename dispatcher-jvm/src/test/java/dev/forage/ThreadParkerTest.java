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
    void anUnparkBeforeTheParkIsAPermitThatEndsItAtOnce() throws Exception {
        // The park runs on a thread of its own, so that a park the permit does not end fails the assertion below
        // (with a thread dump) instead of holding the test until the watchdog.
        Parker parker = new ThreadParker();
        CountDownLatch returned = new CountDownLatch(1);
        Thread parked = new Thread(() -> {
            parker.bindCurrentThread();
            parker.unpark();
            parker.park(Parker.FOREVER);
            returned.countDown();
        }, "parker-permit");
        parked.setDaemon(true);
        parked.start();
        Watchdog.awaitLatch("the park after an unpark returned", Watchdog.LIMIT, returned,
                () -> parked.getName() + " is " + parked.getState());
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
        sleeper.setDaemon(true);
        sleeper.start();
        Watchdog.awaitLatch("the sleeper bound the parker", Watchdog.LIMIT, bound, sleeper::toString);
        stop.set(true);
        parker.unpark();
        Watchdog.awaitLatch("the unpark reached the parked sleeper", Watchdog.LIMIT, done,
                () -> sleeper.getName() + " is " + sleeper.getState());
        sleeper.join();
        assertEquals(Thread.State.TERMINATED, sleeper.getState());
    }
}
