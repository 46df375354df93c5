package dev.forage.samples.android

/** What the screen shows; [PrimesModel] publishes each change on the main thread. */
sealed class PrimesState {
    /** Nothing asked yet. */
    object Idle : PrimesState()

    /** Counting the primes below [limit] on Forage. */
    data class Counting(val limit: Int) : PrimesState()

    /** The count finished: [count] primes below [limit]. */
    data class Done(val limit: Int, val count: Int) : PrimesState()

    /** The count threw; [message] says why. */
    data class Failed(val limit: Int, val message: String) : PrimesState()
}
