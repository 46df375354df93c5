package dev.forage.coroutines.contract

/**
 * Whether this target's pools have worker threads of their own (the JVM and Kotlin/Native), so that the suite
 * checks real parallelism; false where everything runs on one thread (JS and Wasm-JS).
 */
expect val poolsHaveThreads: Boolean
