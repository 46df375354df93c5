package dev.forage.interop;

/** Argument checks whose messages name the method and the argument. */
final class Checks {
    private Checks() {
    }

    static void notNull(Object value, String method, String name) {
        if (value == null) {
            throw new NullPointerException(method + ": " + name + " must not be null");
        }
    }
}
