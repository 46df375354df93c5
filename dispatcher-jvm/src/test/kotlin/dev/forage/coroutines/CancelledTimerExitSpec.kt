package dev.forage.coroutines

import dev.forage.testing.ChildJvm
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.string.shouldContain

/**
 * Cancelled timers release their watcher: a non-daemon dispatcher dropped after a `withTimeout` that finished
 * early and a cancelled `delay` lets the JVM exit once its keep-alive passed. ChildJvm fails the test if the child
 * has not exited within its limit, which is far below the ten minutes the cancelled timers were set for.
 */
class CancelledTimerExitSpec : FunSpec({
    test("a non-daemon dispatcher lets the JVM exit after withTimeout and a cancelled delay") {
        val out = ChildJvm.run(2, emptyList(), CancelledTimeoutExitCheck::class.java)
        out shouldContain CancelledTimeoutExitCheck.DONE
    }
})
