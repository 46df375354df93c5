package dev.forage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.forage.testing.Watchdog;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Rayon's pre-RFC-5 sleep module, unit level: one sleepy worker, tickle clears it, tickle wakes all sleepers. */
class SleepyWorkerSleepTest {
    @Test
    void aTickledSleepyWorkerGoesBackToSearchingInsteadOfSleeping() {
        SleepyWorkerSleep s = new SleepyWorkerSleep(preRfc5Rounds(0, 2), ThreadParker.forWorkers(2)); // sleepy after 0 rounds, asleep at 2
        FakeWorker w0 = new FakeWorker(s, 0);
        w0.startLooking();
        w0.noWorkFound(); // gets sleepy
        assertEquals(SleepyWorkerWord.withSleepyWorker(SleepyWorkerWord.AWAKE, 0), s.word());
        s.newInternalJobs(1, true); // tickle: clears the sleepy worker
        assertEquals(SleepyWorkerWord.AWAKE, s.word());
        w0.noWorkFound(); // still sleepy? no: back to awake
        w0.noWorkFound(); // round 0 again: gets sleepy again (it would have slept had it missed the tickle)
        assertEquals(SleepyWorkerWord.withSleepyWorker(SleepyWorkerWord.AWAKE, 0), s.word());
        assertEquals(0, w0.counters.get(PoolCounter.SLEEPS));
    }

    @Test
    void oneTickleWakesEverySleeper() throws Throwable {
        int threads = 3;
        SleepyWorkerSleep s = new SleepyWorkerSleep(preRfc5Rounds(0, 1), ThreadParker.forWorkers(threads));
        FakeWorker[] workers = new FakeWorker[threads];
        Thread[] running = new Thread[threads];
        Watchdog.within("tickle wakes all", () -> {
            for (int i = 0; i < threads; i++) {
                FakeWorker w = new FakeWorker(s, i);
                workers[i] = w;
                running[i] = w.startThread(() -> {
                    w.startLooking();
                    w.searchUntilWokenOnce();
                });
            }
            Watchdog.awaitCondition("all asleep", Duration.ofSeconds(30), () -> s.sleepingThreads() == threads,
                    s::toString);
            assertEquals(SleepyWorkerWord.ASLEEP_BIT, s.word(), "asleep, and nobody sleepy");
            s.newInjectedJobs(1, true);
            for (Thread t : running) {
                t.join(); // each returns only once woken
            }
        });
        for (FakeWorker w : workers) {
            assertEquals(1, w.counters.get(PoolCounter.WAKEUPS));
        }
        assertEquals(SleepyWorkerWord.AWAKE, s.word());
    }

    /** The pool's defaults with the module's rounds: sleepy after {@code sleepy}, asleep at {@code asleep}. */
    private static Tuning preRfc5Rounds(int sleepy, int asleep) {
        return Tuning.DEFAULTS.with(Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY, sleepy)
                .with(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP, asleep).checked();
    }
}
