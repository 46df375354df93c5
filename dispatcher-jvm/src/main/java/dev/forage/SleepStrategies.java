package dev.forage;


/**
 * How idle workers of a pool decide to sleep and how new work wakes them. Every strategy runs the same jobs
 * with the same guarantees (no job is lost, a set latch always wakes its owner); they differ in CPU burnt while
 * idle, wake-up latency and throughput. The designs, their proofs and the measurements are in
 * {@code docs/sleep-strategies.md}.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .threads(8)
 *         .sleepStrategy(SleepStrategies.JEC_SPIN)   // default: JEC
 *         .build();
 * }</pre>
 */
public enum SleepStrategies {
    /**
     * Rayon's jobs-event-counter protocol (seed 001): idle and sleeping counts and the jobs event counter in one
     * atomic word; posting work wakes only the workers the idle count says are missing. The default.
     */
    JEC {
        @Override
        SleepStrategy create(int threads, PoolProbe probe) {
            return new JecSleep(threads, probe);
        }
    },

    /**
     * The JEC protocol behind marl's spin-for-work phase (seed 004): an idle worker first spins for
     * {@code forage.spinForWorkNanos} (see {@link ForagePoolBuilder#spinForWorkNanos}), looking for work,
     * searching and yielding, before the JEC's rounds start. Lower wake-up latency for bursty work; more CPU.
     */
    JEC_SPIN {
        @Override
        SleepStrategy create(int threads, PoolProbe probe) {
            return new JecSleep(threads, probe);
        }

        @Override
        long defaultSpinNanos() {
            return Tuning.SPIN_FOR_WORK_NANOS;
        }
    },

    /**
     * The JEC protocol with a cap on searching workers (Tokio, Go): at most half the workers search at once;
     * the others go straight to the sleep step, and the last searcher that finds work wakes one more.
     */
    JEC_SEARCH_CAP {
        @Override
        SleepStrategy create(int threads, PoolProbe probe) {
            return new SearchCapSleep(threads, probe);
        }
    },

    /**
     * Rayon's earlier protocol (seed 000), the baseline: one sleepy worker at a time in a single atomic word,
     * and every new job or set latch wakes every sleeper. Simple, and costly at low load on a wide pool.
     */
    SLEEPY_WORKER {
        @Override
        SleepStrategy create(int threads, PoolProbe probe) {
            return new SleepyWorkerSleep(threads);
        }
    },

    /**
     * EMPER's strategy (seed 003): a sleepers count that notifiers decrement with CAS loops, and a wake-up hint
     * telling each woken worker where the new work is (the pushing worker's deque, or the injector).
     */
    EMPER {
        @Override
        SleepStrategy create(int threads, PoolProbe probe) {
            return new EmperSleep(threads, probe);
        }
    };

    /** The strategy itself, for {@code threads} worker slots. */
    abstract SleepStrategy create(int threads, PoolProbe probe);

    /** The spin phase this strategy has unless the builder sets one: none, except for {@link #JEC_SPIN}. */
    long defaultSpinNanos() {
        return 0L;
    }

    /** The strategy with its spin phase: {@code spinNanos} &lt; 0 means this strategy's default. */
    SleepStrategy create(int threads, long spinNanos, PoolProbe probe) {
        SleepStrategy strategy = create(threads, probe);
        long spin = spinNanos < 0 ? defaultSpinNanos() : spinNanos;
        return spin > 0 ? new SpinForWork(strategy, threads, spin, probe) : strategy;
    }
}
