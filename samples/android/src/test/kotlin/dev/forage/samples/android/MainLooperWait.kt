package dev.forage.samples.android

import android.os.Looper
import org.robolectric.Shadows.shadowOf
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.LockSupport

/** Every wait in these tests ends by this deadline; a hang becomes a failure with a thread dump. */
private const val WAIT_SECONDS = 30L
private val POLL_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1)

/**
 * Runs the main Looper's queued messages until [condition] holds. Work on Forage posts its result to the
 * main Looper from another thread at a time the test does not know, so the test drains the queue and looks
 * again, up to a deadline (polling a condition with a deadline, never a sleep standing in for a signal).
 */
internal fun idleMainLooperUntil(what: String, condition: () -> Boolean) {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS)
    while (true) {
        shadowOf(Looper.getMainLooper()).idle()
        if (condition()) return
        if (System.nanoTime() - deadline > 0) throw AssertionError("timed out waiting for $what\n${threadDump()}")
        LockSupport.parkNanos(POLL_INTERVAL_NANOS)
    }
}

/** Awaits [latch] up to the deadline, failing with a thread dump instead of hanging. */
internal fun awaitOrFail(latch: CountDownLatch, what: String) {
    if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) throw AssertionError("timed out waiting for $what\n${threadDump()}")
}

private fun threadDump(): String = Thread.getAllStackTraces().entries.joinToString("\n") { (thread, stack) ->
    "\"${thread.name}\" ${thread.state}\n" + stack.joinToString("\n") { "    at $it" }
}
