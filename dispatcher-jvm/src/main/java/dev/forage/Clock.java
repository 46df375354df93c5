package dev.forage;

/**
 * The pool's time, in {@link System#nanoTime()} units: timer deadlines, timed waits inside the pool, and how
 * long a sleeping timer watcher parks. Injectable so that tests can move time by hand
 * ({@code ForagePoolBuilder.clock}, package-private); every pool in production uses {@link #SYSTEM}.
 */
interface Clock {
    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public String toString() {
            return "Clock.SYSTEM";
        }
    };

    /** The current time; only differences between two readings mean anything. */
    long nanoTime();
}
