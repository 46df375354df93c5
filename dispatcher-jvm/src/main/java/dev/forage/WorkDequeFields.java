package dev.forage;

import java.util.concurrent.atomic.AtomicReferenceArray;

// WorkDeque's fields and their layout: which thread writes each, and which cache line each sits on. The deque's
// protocol over them is WorkDeque's.
//
// top (written by thieves) and the owner's fields (bottom, buffer, cleared) sit on cache lines of their own, padded
// by superclasses (Java 8 has no @Contended for library code), so neither shares a line with the other or with a
// neighbouring object that another thread writes. Unpadded, which objects ended up side by side depended on
// allocation and GC order, and the same benchmark ran at bimodal speeds from one JVM to the next. The class names
// are kept by the consumer R8 rules (META-INF/proguard/forage-dispatcher.pro), whose field updaters name them.

abstract class WorkDequeTop extends LeadingPad {
    /** Index of the oldest job; only ever increases; advanced by CAS (thieves, and the owner for the last job). */
    volatile long top;
}

abstract class WorkDequePad1 extends WorkDequeTop {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class WorkDequeOwnerFields extends WorkDequePad1 {
    /** One past the newest job; written only by the owner. */
    volatile long bottom;
    volatile AtomicReferenceArray<Runnable> buffer;
    /**
     * The next slot: the job {@code pushNext} put there when it was empty, newer than the ring's jobs below
     * {@code nextFloor} and older than those above; taken by the owner's next pop, or by a thief once no older ring
     * job is left. Written by the owner, emptied by CAS.
     */
    volatile Runnable next;
    /**
     * Owner-written (an ordered store, no fence) count of jobs put in the slot, modulo 2^32: the slot job's tag
     * for the lone-job rule, and a thief's check that no job was put there during its steal.
     */
    volatile int nextPuts;
    /** Owner-written: {@code bottom} when the slot's job was put there; ring jobs below it are older. */
    long nextFloor;
    /** Owner-only: {@code top} as the owner last read it, never above it (top only grows). */
    long topSeen;
    /** Owner-only: pushes since the owner last read {@code top}. */
    int pushesSinceTopRead;
    /** Owner-only: slots below this index have been nulled. */
    long cleared;
    /** A push clears the consumed slots once this many wait ({@code WorkDeque.CLEAR_BATCH} but in tests). */
    int clearBatch;
}
