package dev.forage.coroutines

import kotlin.coroutines.Continuation
import kotlin.coroutines.jvm.internal.CoroutineStackFrame
import kotlinx.coroutines.CoroutineName

/**
 * Names a coroutine's resumption for the pool's diagnostics (JFR's `dev.forage.LongJob`): the Java core loads this
 * object by name (`dev.forage.TaskName`), so that it needs no Kotlin on its class path.
 *
 * A dispatched coroutine reaches the pool as kotlinx's own runnable (a `DispatchedContinuation` or a
 * `CancellableContinuationImpl`), which is also the coroutine's [Continuation]: its context has the
 * [CoroutineName], and its [CoroutineStackFrame] chain leads from the frame that was resumed out to the
 * coroutine's body. The first frame that is not kotlinx's, the standard library's or this face's (by package and
 * by jar) is the user's suspend function or lambda that ran.
 */
internal object CoroutineTaskNames {
    /** Frames looked at at most: deep suspend chains exist, but the user's frame is near the resumed one. */
    private const val MAX_FRAMES = 64

    /** {innermost user frame's class or null, CoroutineName or null} for a coroutine's continuation; else null. */
    @JvmStatic
    fun describe(task: Any): Array<String?>? {
        val continuation = task as? Continuation<*> ?: return null
        val name = continuation.context[CoroutineName]?.name
        var frame = task as? CoroutineStackFrame
        var frames = 0
        while (frame != null && frames++ < MAX_FRAMES) {
            if (!isLibrary(frame.javaClass)) {
                return arrayOf(frame.javaClass.name, name)
            }
            frame = frame.callerFrame
        }
        return arrayOf(null, name)
    }

    /** This face's own code source: its suspend functions (`awaitJoin`, the socket calls) are library frames. */
    private val ownCode = codeSource(CoroutineTaskNames::class.java)

    private fun isLibrary(frame: Class<*>): Boolean {
        val className = frame.name
        return className.startsWith("kotlinx.coroutines.") || className.startsWith("kotlin.") ||
            // By package and by jar: an application's own classes in a package of that name are still its own.
            (className.startsWith("dev.forage.") && ownCode != null && codeSource(frame) == ownCode)
    }

    private fun codeSource(c: Class<*>): Any? =
        try {
            c.protectionDomain?.codeSource?.location
        } catch (e: SecurityException) {
            null
        }
}
