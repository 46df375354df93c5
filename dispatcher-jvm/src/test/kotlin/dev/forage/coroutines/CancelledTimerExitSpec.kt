package dev.forage.coroutines

import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import java.io.File
import java.util.concurrent.TimeUnit

/**
 * Cancelled timers release their watcher: a non-daemon dispatcher dropped after a `withTimeout` that finished
 * early and a cancelled `delay` lets the JVM exit once its keep-alive passed. The child's output goes to a file,
 * so a child that does not exit is seen at the limit (two minutes, far below the ten minutes the cancelled timers
 * were set for) instead of blocking a read of its output.
 */
class CancelledTimerExitSpec : FunSpec({
    test("a non-daemon dispatcher lets the JVM exit after withTimeout and a cancelled delay") {
        val java = File(System.getProperty("java.home"), "bin/java").path
        val log = File.createTempFile("cancelled-timeout", ".log", File("target").apply { mkdirs() })
        val process = ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            CancelledTimeoutExitCheck::class.java.name)
            .redirectErrorStream(true)
            .redirectOutput(log)
            .start()
        val exited = process.waitFor(2, TimeUnit.MINUTES)
        if (!exited) process.destroyForcibly()
        val output = log.readText()
        check(exited) { "the JVM did not exit within 2 minutes after its timers were cancelled: $output" }
        process.exitValue() shouldBe 0
        output shouldContain CancelledTimeoutExitCheck.DONE
    }
})
