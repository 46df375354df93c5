package dev.forage;

/**
 * How idle workers of a pool decide to sleep and whom new work wakes. {@link #JEC} is the production protocol
 * and the default; leave it unless you are measuring. The others are <b>comparison baselines</b>, kept so that
 * the JEC's advantages can be measured against the designs it is compared with, in the same pool and the same
 * benchmarks: they run the same jobs with the same guarantees (no job is lost, a set latch always wakes its
 * owner), and differ in CPU burnt while idle, wake-up latency and throughput. Designs, proofs and measurements:
 * {@code docs/sleep-strategies.md}. What each name builds: {@code SleepProtocols}.
 *
 * <pre>{@code
 * ForagePool baseline = ForagePool.builder()
 *         .threads(8)
 *         .sleepProtocol(SleepProtocol.RAYON_PRE_RFC5)   // to measure against; production: the default, JEC
 *         .build();
 * }</pre>
 */
public enum SleepProtocol {
    /**
     * Rayon's sleep module, the jobs event counter: idle and sleeping counts and the jobs event counter in one
     * atomic word; posting work wakes only the workers the idle count says are missing. The default, and the
     * only protocol meant for production.
     */
    JEC,

    /**
     * Comparison baseline: Rayon's pre-RFC-5 sleep module. One sleepy worker at a time in a single atomic word,
     * and every new job or set latch wakes every sleeper. Simple, and costly at low load on a wide pool: the
     * protocol the jobs event counter replaced.
     */
    RAYON_PRE_RFC5,

    /**
     * Comparison baseline: EMPER's sleep strategy. A sleepers count that notifiers decrement with CAS loops, and a
     * wake-up hint telling each woken worker where the new work is (the pushing worker's deque, or the
     * injector). Here the workers wait on a lock-guarded stand-in for EMPER's pipe, not in the IO subsystem.
     */
    EMPER,

    /**
     * Comparison baseline: the JEC behind marl's spin-for-work phase. An idle worker first spins for
     * {@code forage.spinForWorkNanos} (50 µs), looking for work, searching and yielding, before the JEC's rounds
     * start. Lower wake-up latency for bursty work; more CPU while idle.
     */
    MARL_SPIN,

    /**
     * Comparison baseline: the JEC with a cap on searching workers, as Tokio and Go do. At most half the workers
     * search at once; the others go straight to the sleep step, and the last searcher that finds work wakes one
     * more.
     */
    SEARCH_CAP;
}
