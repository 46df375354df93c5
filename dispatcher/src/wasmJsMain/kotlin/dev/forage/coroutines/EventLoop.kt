package dev.forage.coroutines

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers

/** Node's or the browser's event loop, through kotlinx's dispatcher for it (timers by `setTimeout`). */
internal actual fun eventLoop(): CoroutineDispatcher = Dispatchers.Default
