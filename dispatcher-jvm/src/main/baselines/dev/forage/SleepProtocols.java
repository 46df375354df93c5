package dev.forage;

/**
 * Which protocol a {@link SleepProtocol} name builds. It lives beside the comparison baselines, in their source root,
 * so that the engine names no protocol but {@link JecSleep}: {@link ForagePoolBuilder} puts the {@link Sleep.Factory}
 * made here in {@link PoolSettings}, and the registry calls it once. With {@link SleepProtocol#JEC} and no spin
 * phase the factory returns the {@code JecSleep} itself, with nothing wrapped around it.
 */
final class SleepProtocols {
    private SleepProtocols() {
    }

    /**
     * What builds the protocol a pool's builder named. {@code spinNanos}: marl's spin phase in front of the
     * protocol, 0 for none, negative for the protocol's default (none, but for {@link SleepProtocol#MARL_SPIN}).
     */
    static Sleep.Factory factory(SleepProtocol protocol, long spinNanos) {
        if (protocol == null) {
            throw new NullPointerException("protocol must not be null");
        }
        return (tuning, parkers, coreWorkers, probe) -> build(protocol, tuning, parkers, coreWorkers, spinNanos, probe);
    }

    /**
     * The protocol {@code protocol} names, for one worker per parker, as {@link Sleep.Factory#build} says; a cap on
     * searchers ({@link SleepProtocol#SEARCH_CAP}) counts only the first {@code coreWorkers}, the pool's threads,
     * not the extra slots that stand in for blocked workers. {@code spinNanos} as in {@link #factory}.
     */
    private static Sleep build(SleepProtocol protocol, Tuning tuning, Parker[] parkers, int coreWorkers, long spinNanos,
            PoolProbe probe) {
        Sleep sleep;
        long defaultSpin = 0L;
        switch (protocol) {
            case RAYON_PRE_RFC5:
                sleep = new SleepyWorkerSleep(tuning, parkers);
                break;
            case EMPER:
                sleep = new EmperSleep(tuning, parkers, probe);
                break;
            case SEARCH_CAP:
                JecSleep jec = new JecSleep(tuning.with(Tunable.WAKE_ON_WORK_FOUND, 0), parkers, probe);
                sleep = new SearchCapSleep(jec, tuning, parkers.length, coreWorkers);
                break;
            case MARL_SPIN:
                defaultSpin = tuning.get(Tunable.SPIN_FOR_WORK_NANOS);
                sleep = new JecSleep(tuning, parkers, probe);
                break;
            default:
                sleep = new JecSleep(tuning, parkers, probe);
        }
        long spin = spinNanos < 0 ? defaultSpin : spinNanos;
        return spin > 0 ? new SpinForWork(sleep, tuning, parkers.length, spin, probe) : sleep;
    }
}
