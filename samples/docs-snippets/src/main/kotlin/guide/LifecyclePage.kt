package guide

import dev.forage.QueueFullPolicy
import dev.forage.coroutines.ForageDispatcher
import dev.forage.coroutines.forageDispatcher

// The Kotlin blocks of docs/lifecycle.md.

fun boundedDispatcher(): ForageDispatcher {
    val dispatcher = forageDispatcher { queueCapacity = 10_000; whenQueueFull = QueueFullPolicy.CALLER_RUNS }
    return dispatcher
}
