package dev.forage;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One pool's values of every {@link Tunable}: immutable, built by {@link ForagePoolBuilder} and handed to the
 * pool's parts (its sleep protocol, its workers' search policies, its timers) when they are made, as Tokio's
 * runtime builder and {@code ForkJoinPool}'s constructor configure each pool on its own. The defaults are
 * {@link #DEFAULTS}: the built-in values, or those of the system properties, read once. Not part of the API; a
 * user sets the system properties, or the public builder methods where a tunable has one.
 */
final class Tuning {
    /** Every tunable at its default (built in, or seeded by its system property). */
    static final Tuning DEFAULTS = defaults();

    /** Indexed by {@link Tunable#ordinal()}. Never written after construction. */
    private final long[] values;

    private Tuning(long[] values) {
        this.values = values;
    }

    private static Tuning defaults() {
        long[] values = new long[Tunable.values().length];
        for (Tunable t : Tunable.values()) {
            values[t.ordinal()] = t.defaultValue;
        }
        // A property that raises the pre-RFC-5 module's sleepy round alone moves its asleep round with it, so that a
        // sleepy worker still searches once more before it sleeps.
        int asleep = Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP.ordinal();
        if (!Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP.seededByProperty()) {
            values[asleep] = Math.max(values[asleep], values[Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY.ordinal()] + 1);
        }
        return new Tuning(values).checked();
    }

    /**
     * {@code tunable} set from a duration the user gave ({@link ForagePoolBuilder#longJobThreshold},
     * {@link ForagePoolBuilder#blockingDetection}): whole milliseconds from 0 to the tunable's maximum, checked
     * here once for every such setting; {@code zero} says what 0 means in the message, if anything.
     */
    Tuning withMillis(Tunable tunable, String setting, String zero, long time, TimeUnit unit) {
        if (unit == null) {
            throw new NullPointerException(setting + ": unit must not be null");
        }
        long millis = unit.toMillis(time);
        boolean wholeMillis = unit.toNanos(time) % 1_000_000L == 0;
        if (time < 0 || millis > tunable.max || !wholeMillis) {
            throw new IllegalArgumentException(setting + " must be a whole number of milliseconds from 0" + zero
                    + " to " + tunable.max + " ms, was " + time + " " + unit);
        }
        return with(tunable, millis);
    }

    /**
     * This tuning with {@code tunable} set to {@code value}.
     *
     * @throws IllegalArgumentException if {@code value} is outside the tunable's range; the message names it
     */
    Tuning with(Tunable tunable, long value) {
        long[] copy = values.clone();
        copy[tunable.ordinal()] = tunable.check(value);
        return new Tuning(copy);
    }

    /** The value of {@code tunable}. */
    long get(Tunable tunable) {
        return values[tunable.ordinal()];
    }

    /** The value of {@code tunable} as an {@code int}: every tunable's range fits one. */
    int getInt(Tunable tunable) {
        return (int) values[tunable.ordinal()];
    }

    /**
     * This tuning, after the checks that involve two tunables.
     *
     * @throws IllegalArgumentException naming both tunables and what is allowed
     */
    Tuning checked() {
        long sleepy = get(Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY);
        long asleep = get(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP);
        if (asleep <= sleepy) {
            throw new IllegalArgumentException(Tunable.PRE_RFC5_ROUNDS_UNTIL_ASLEEP.settingName + " (" + asleep
                    + ") must be more than " + Tunable.PRE_RFC5_ROUNDS_UNTIL_SLEEPY.settingName + " (" + sleepy
                    + "): a sleepy worker searches at least once more before it sleeps");
        }
        return this;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tuning && Arrays.equals(values, ((Tuning) o).values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Tuning{");
        for (Tunable t : Tunable.values()) {
            s.append(t.ordinal() == 0 ? "" : ", ").append(t.settingName).append('=').append(get(t));
        }
        return s.append('}').toString();
    }
}
