package dev.forage.coroutines

import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.InternalCoroutinesApi

/**
 * `limitedParallelism(n, name)` when n does not limit anything: [delegate] under another name (shown by
 * `toString`, hence in coroutine debug names and thread dumps).
 */
@OptIn(InternalCoroutinesApi::class)
internal class NamedForageDispatcher(
    private val delegate: CoroutineDispatcher,
    timers: ForageDispatcher,
    private val name: String,
) : CoroutineDispatcher(), Delay by timers {
    override fun isDispatchNeeded(context: CoroutineContext): Boolean = delegate.isDispatchNeeded(context)

    override fun dispatch(context: CoroutineContext, block: Runnable) = delegate.dispatch(context, block)

    override fun dispatchYield(context: CoroutineContext, block: Runnable) = delegate.dispatchYield(context, block)

    override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher =
        delegate.limitedParallelism(parallelism, name)

    override fun toString(): String = name
}
