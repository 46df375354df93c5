package dev.forage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZZ_Result;

/**
 * The readiness race ({@code docs/io.md}, "Readiness against the sleep decision"): a channel becomes readable
 * (another thread writes into a pipe) while its owner, an IO worker that waits for it, goes through the JEC's
 * sleep step (S2 whole-word CAS, S4 final check, S5 block in its {@link IoReactor}'s select through
 * {@link SelectorParker}). The write is no post: it moves no JEC and wakes nobody, so only the selector can end
 * the sleep. Select is level-triggered, so readiness that came before the select ends it at once, and readiness
 * during it ends it; the reactor collects the fired wait (R2), {@code eventsFound} ends the S5 loop, the worker
 * un-counts itself as on a deadline, and the listener runs once the worker is awake (R3).
 *
 * <p>The context's park deadline is one second; a second call (the select ran out and the worker is still blocked
 * once the writer has finished) is the forbidden outcome: the sleep missed the readiness. A broken run is slow (a
 * second or two per sample) but ends.
 *
 * <p>Result: r1 the worker blocked in S5, r2 the listener was told the channel is ready, r3 the worker woke only by
 * its deadline, r4 the counters are back at "one idle worker, no sleeper".
 */
@JCStressTest
@Description("Pipe readiness vs the IO worker's JecSleep sleep step: readiness always ends the sleep.")
@Outcome(id = "true, true, false, true", expect = Expect.ACCEPTABLE,
        desc = "The select saw the readiness (before or during it): the worker woke itself and told the listener.")
@Outcome(id = "true, true, true, true", expect = Expect.FORBIDDEN,
        desc = "The sleep missed the readiness: the worker stayed blocked until its deadline.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Anything else, e.g. the listener never told or a sleeper left counted.")
@State
public class ReadinessVsJecSleep {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final IoReactor reactor = new IoReactor("stress", 0, Tuning.DEFAULTS.get(Tunable.IO_CLOSED_CHECK_MILLIS), null);
    private final SelectorParker parker = reactor.parker();
    private final JecSleep sleep =
            new JecSleep(RaceIdleContext.NO_ROUNDS.with(Tunable.NAP_NANOS, 0L), new Parker[] {parker},
                    RaceIdleContext.NO_UNCLAIMED_WORK);
    private final SpinLatch latch = new SpinLatch(sleep, 0);
    private final IdleState idle;
    private final Pipe pipe;
    private final Context context = new Context();
    private volatile boolean writerDone;
    private boolean told;

    /** No queued jobs anywhere; a one-second deadline, and a record of any second call. */
    private final class Context implements IdleContext {
        private final WorkerStatistics stats = new WorkerStatistics();
        boolean deadlineWake;
        int calls;

        @Override
        public boolean hasQueuedJobs() {
            return false;
        }

        @Override
        public long parkNanos() {
            if (++calls > 1 && writerDone) {
                deadlineWake = true;
                return 0L;
            }
            return DEADLINE_NANOS;
        }

        @Override
        public void wakeupWithoutWork() {
            stats.wakeupWithoutWork();
        }

        @Override
        public WorkerStatistics statistics() {
            return stats;
        }
    }

    public ReadinessVsJecSleep() {
        try {
            pipe = Pipe.open();
            pipe.source().configureBlocking(false);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        idle = sleep.startLooking(0);
        sleep.noWorkFound(idle, latch, context); // S1 (roundsUntilSleepy = 0): the next call is the sleep step
    }

    @Actor
    public void worker() {
        parker.bindCurrentThread();
        reactor.submit(new IoWait(reactor, pipe.source(), SelectionKey.OP_READ, new ReadinessListener() {
            @Override
            public void ready(SelectableChannel channel) {
                told = true;
            }

            @Override
            public void failed(Throwable error) {
                throw new AssertionError(error);
            }
        }));
        sleep.noWorkFound(idle, latch, context); // S2..S5, blocking in select
        reactor.awake(); // R3, as the worker loop does after each idle round
    }

    @Actor
    public void writer() {
        try {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        writerDone = true;
    }

    @Arbiter
    public void arbiter(ZZZZ_Result r) {
        r.r1 = context.stats.get(PoolCounter.SLEEPS) > 0;
        r.r2 = told;
        r.r3 = context.deadlineWake;
        long c = sleep.word().load();
        r.r4 = JecCounters.sleepingThreads(c) == 0 && JecCounters.inactiveThreads(c) == 1;
        reactor.closeSelector();
        try {
            pipe.sink().close();
            pipe.source().close();
        } catch (IOException ignored) {
            // the next sample has its own pipe
        }
    }
}
