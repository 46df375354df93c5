package dev.forage;

/**
 * A one-shot signal (Rayon RFC #5, "Latches"): starts unset, any thread may {@link #set()} it, and once set it
 * stays set. Each latch has exactly one owner, the thread that waits for it.
 */
interface Latch {
    /**
     * Sets the latch and wakes its owner if, and only if, the owner sleeps on this latch.
     *
     * <p>Hazard: once set, the owner may return and reuse or drop whatever the latch guards; an implementation
     * reads every field it needs before the store that publishes SET.
     */
    void set();

    /**
     * {@link #set()}, and wakes the owner whatever the state was: the recovery of a job whose earlier {@code set}
     * was cut short by a throwable after it published SET ({@link WaitedJob#abandon}). A wake-up of an owner that
     * does not sleep on this latch is a spurious one, which every sleep loop tolerates.
     */
    void setAndWake();

    /** True once set. Cheap: one volatile read. */
    boolean probe();
}
