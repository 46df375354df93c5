package dev.forage.coroutines.contract

/**
 * Whether this target's pools have worker threads of their own (the JVM), so that the suite checks real
 * parallelism; false where everything runs on one thread (JS, Wasm-JS, and the interim native build).
 */
expect val poolsHaveThreads: Boolean
