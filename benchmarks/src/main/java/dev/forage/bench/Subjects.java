package dev.forage.bench;

import dev.forage.SleepProtocol;
import dev.forage.bench.Subject.Kind;
import dev.forage.coroutines.ForageDispatchers;
import java.util.ArrayList;
import java.util.List;

/**
 * Every subject of the comparison, in the order they alternate within a run. Forage subjects come first; the
 * first Forage subject is the one the targets judge (the pool's default configuration). To add a Forage
 * configuration (for example another sleep strategy) add one {@code Subject.forage(...)} line.
 */
public final class Subjects {
    private Subjects() {
    }

    /** The default run: Forage as users get it, and the anchors. */
    public static final List<Subject> DEFAULT = List.of(
            Subject.forage("forage-jec", "Forage (JEC)", b -> b, ForageDispatchers::from),
            Subject.of("forkjoin", "ForkJoinPool", Kind.FORK_JOIN_POOL),
            Subject.of("common", "commonPool", Kind.COMMON_POOL),
            Subject.of("default", "Dispatchers.Default", Kind.DEFAULT_DISPATCHER),
            Subject.of("fixed", "fixed pool", Kind.FIXED_POOL));

    /** The demo's subjects (the README's command): Forage and the three anchors a newcomer would pick instead. */
    public static final List<Subject> DEMO = List.of(DEFAULT.get(0), DEFAULT.get(1), DEFAULT.get(3), DEFAULT.get(4));

    /** Forage with each other sleep strategy (docs/sleep-strategies.md); added with {@code --strategies}. */
    public static final List<Subject> STRATEGIES = List.of(
            Subject.forage(Targets.PRE_RFC5_SUBJECT, "Forage (Rayon pre-RFC-5)",
                    b -> b.sleepProtocol(SleepProtocol.RAYON_PRE_RFC5), ForageDispatchers::from),
            Subject.forage("forage-emper", "Forage (EMPER)",
                    b -> b.sleepProtocol(SleepProtocol.EMPER), ForageDispatchers::from),
            Subject.forage("forage-spin", "Forage (JEC + spin)",
                    b -> b.sleepProtocol(SleepProtocol.MARL_SPIN), ForageDispatchers::from),
            Subject.forage("forage-searchcap", "Forage (JEC + search cap)",
                    b -> b.sleepProtocol(SleepProtocol.SEARCH_CAP), ForageDispatchers::from));

    /** Every subject, in the order they alternate. */
    public static final List<Subject> ALL = concat(DEFAULT, STRATEGIES);

    private static List<Subject> concat(List<Subject> a, List<Subject> b) {
        List<Subject> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /** The Forage subject the targets judge. */
    public static Subject primaryForage() {
        for (Subject s : ALL) {
            if (s.isForage()) {
                return s;
            }
        }
        throw new IllegalStateException("no Forage subject in Subjects.ALL");
    }

    public static Subject byId(String id) {
        for (Subject s : ALL) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown subject '" + id + "'; known: " + ids());
    }

    public static List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (Subject s : ALL) {
            ids.add(s.id());
        }
        return ids;
    }
}
