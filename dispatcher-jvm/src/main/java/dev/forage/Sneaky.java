package dev.forage;

/** Rethrows a job's failure unchanged, whatever its type (the result of a join is the job's own outcome). */
final class Sneaky {
    private Sneaky() {
    }

    static RuntimeException rethrow(Throwable t) {
        Sneaky.<RuntimeException>throwAs(t);
        throw new AssertionError("unreachable");
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void throwAs(Throwable t) throws E {
        throw (E) t;
    }
}
