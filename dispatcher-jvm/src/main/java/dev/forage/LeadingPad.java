package dev.forage;

/**
 * 128 bytes of padding (two cache lines, against the adjacent-line prefetcher too) for the start of an object
 * whose first fields are written often: the first superclass of {@link PaddedAtomicLong}, {@link WorkerStatistics},
 * the work deque, the injector and a worker's owner state. Java 8 library code has no {@code @Contended}, and a
 * superclass's fields are laid out before a subclass's, so this puts the hot fields after it. The padding
 * between or after hot fields has to sit at its own place in each hierarchy and is written there.
 *
 */
abstract class LeadingPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;

    protected LeadingPad() {
    }
}
