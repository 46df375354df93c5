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

    /** True once set. Cheap: one volatile read. */
    boolean probe();
}
