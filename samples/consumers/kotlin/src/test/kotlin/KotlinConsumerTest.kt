import dev.forage.coroutines.Forage
import dev.forage.coroutines.awaitScope
import dev.forage.coroutines.forageDispatcher
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong

/** Runs the README's Kotlin quick start, at the floors the README states, and checks what it prints. */
@Timeout(60)
class KotlinConsumerTest {

    @Test
    fun quickStartPrintsTheSumOfSquaresAndTheJoinedSums() {
        val original = System.out
        val captured = ByteArrayOutputStream()
        System.setOut(PrintStream(captured, true, "UTF-8"))
        try {
            main()
        } finally {
            System.setOut(original)
        }
        val lines = captured.toString("UTF-8").trim().lines()
        original.println(lines.joinToString("\n"))
        assertEquals(listOf("385", "500500"), lines)
    }

    @Test
    fun runsOnTheFloorVersionsTheReadmeStates() {
        // The build must not have upgraded them behind the README's back.
        assertEquals("1.9.0", jarVersion(CoroutineDispatcher::class.java, "kotlinx-coroutines-core-jvm"))
        assertEquals("2.1.0", jarVersion(Unit::class.java, "kotlin-stdlib"))
    }

    @Test
    fun theApisNewestInKotlinxWorkOnTheFloorVersion() = runBlocking {
        // limitedParallelism(n, name) is kotlinx 1.9's; Forage overrides it, and yield() is its dispatchYield.
        val view = Dispatchers.Forage.limitedParallelism(1, "one-at-a-time")
        assertEquals("one-at-a-time", view.toString())
        val running = AtomicInteger()
        val maxRunning = AtomicInteger()
        withContext(view) {
            (1..20).map {
                async {
                    maxRunning.accumulateAndGet(running.incrementAndGet(), ::maxOf)
                    Thread.sleep(1)
                    running.decrementAndGet()
                    yield()
                }
            }.awaitAll()
        }
        assertEquals(1, maxRunning.get())

        forageDispatcher { threads = 2; name = "floor" }.use { floor ->
            val total = AtomicLong()
            withContext(floor) {
                withTimeout(10_000) { floor.pool.awaitScope { s -> repeat(10) { i -> s.spawn { -> total.addAndGet(i.toLong()) } } } }
                assertTrue(Thread.currentThread().name.startsWith("floor-worker"), Thread.currentThread().name)
            }
            assertEquals(45L, total.get())
        }
    }

    private fun jarVersion(type: Class<*>, artifact: String): String {
        val jar = type.protectionDomain.codeSource.location.path.substringAfterLast('/')
        assertTrue(jar.startsWith("$artifact-") && jar.endsWith(".jar"), jar)
        return jar.removePrefix("$artifact-").removeSuffix(".jar")
    }
}
