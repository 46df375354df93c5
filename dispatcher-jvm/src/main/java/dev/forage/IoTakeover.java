package dev.forage;

/**
 * How the IO workers of one pool cover for each other: a channel belongs to one worker's selector, and while that
 * worker runs a long job or the OS has descheduled it, a neighbour that is idle, or busy but between jobs, looks at
 * that selector and runs what its readiness resumes (Tokio lets any parked worker drive the IO; Go's {@code sysmon}
 * polls a network nobody polled for 10 ms). The protocol and its proof sketch are in {@code docs/io.md} section 6;
 * the step labels (T1..T4) point there.
 *
 * <ul>
 *   <li><b>When a neighbour looks</b> (T4, {@link #fromNeighbours}): a reactor is <em>exposed</em> while it has
 *       pending waits and its owner is not in a select; a neighbour takes it over once nobody drove it for
 *       {@link Tunable#IO_TAKEOVER_MILLIS}. Neighbours look before every park, after every idle round and at every
 *       busy poll.</li>
 *   <li><b>Who watches</b> (T3, {@link #watchBound}): a sleeping worker bounds its select while another reactor
 *       has registered channels: by the takeover delay while one is exposed, else by a bound that doubles on each
 *       look up to {@link #WATCH_CAP_MILLIS} and drops back to the delay after a takeover. A pool without channels
 *       sleeps without a bound.</li>
 *   <li><b>The first channel</b> ({@link #firstChannel}): a reactor that registered its first channel wakes one
 *       neighbour that sleeps without watching, which then watches.</li>
 * </ul>
 */
final class IoTakeover {
    /** For reactors without neighbours (a one-worker pool, the stress tests), or with takeover off. */
    static final IoTakeover NONE = new IoTakeover(new IoReactor[0], 0L);
    /** The longest a watching sleeper waits between looks while no neighbour is exposed. */
    static final long WATCH_CAP_MILLIS = 16L;

    private final IoReactor[] reactors;
    /** {@link Tunable#IO_TAKEOVER_MILLIS}; 0 turns takeover off. */
    private final long delayMillis;
    private final long delayNanos;

    /** {@code delayMillis}: {@link Tunable#IO_TAKEOVER_MILLIS}. */
    IoTakeover(IoReactor[] reactors, long delayMillis) {
        this.reactors = reactors;
        this.delayMillis = reactors.length < 2 ? 0L : delayMillis;
        this.delayNanos = this.delayMillis * 1_000_000L;
    }

    /**
     * Whether neighbours take over (a delay is set and there is a neighbour to cover for); only then does anyone
     * read the registered channels and the release times that T2 publishes.
     */
    boolean isOn() {
        return delayMillis != 0L;
    }

    /**
     * T4, {@code thief}'s driver: every exposed neighbour that nobody drove for the takeover delay is looked at once,
     * and the waits that ended move to {@code thief}'s ready list.
     */
    void fromNeighbours(IoReactor thief) {
        if (delayMillis == 0L) {
            return;
        }
        long now = 0L;
        for (IoReactor r : reactors) {
            if (r != thief && r.exposed()) {
                if (now == 0L) {
                    now = System.nanoTime();
                }
                if (r.lendTo(thief, now, delayNanos)) {
                    thief.watchMillis = delayMillis; // a neighbour was stuck: watch closely again
                    thief.counters.ioTakeover();
                }
            }
        }
    }

    /**
     * T3, {@code self}'s owner at P3 (after P1 published that it selects): the select bound in milliseconds
     * ({@link IoReactor#NO_LIMIT_MILLIS}: none) given the bound {@code millis} it had, shorter while a neighbour
     * has channels. Marks {@code self} as watching when it bounds the select, which {@link #firstChannel} reads.
     */
    long watchBound(IoReactor self, long millis) {
        if (delayMillis == 0L) {
            return millis;
        }
        boolean exposed = false;
        boolean channels = false;
        for (IoReactor r : reactors) {
            if (r != self) {
                exposed |= r.exposed();
                channels |= r.hasChannels();
            }
        }
        if (!channels) {
            self.watchMillis = delayMillis;
            return millis;
        }
        long bound;
        if (exposed) {
            bound = delayMillis; // a neighbour runs with waits pending: look again once it could be stale
        } else {
            // Nobody exposed: look less and less often, as sysmon backs off; a takeover resets it (fromNeighbours).
            bound = Math.max(self.watchMillis, delayMillis);
            self.watchMillis = Math.min(bound * 2, Math.max(WATCH_CAP_MILLIS, delayMillis));
        }
        self.watching = true;
        return Math.min(millis, bound); // millis is positive: IoReactor.NO_LIMIT_MILLIS stands for no limit
    }

    /**
     * The driver of {@code r}, which registered its first channel, after publishing that: wakes one neighbour that
     * selects without watching (it may have read no channel before {@code r} published), so that it watches. The
     * Dekker pair of {@link #watchBound}: it publishes {@code SELECTING}, then reads the neighbours' channels.
     */
    void firstChannel(IoReactor r) {
        if (delayMillis == 0L) {
            return;
        }
        for (IoReactor o : reactors) {
            if (o != r && o.parker().isSelecting() && !o.watching) {
                o.parker().unpark();
                return;
            }
        }
    }
}
