package dev.forage.samples.server

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import java.net.ConnectException
import java.security.MessageDigest

// A hang fails the test instead of stalling the build (every socket read also has a 30 s timeout).
@Timeout(120)
class SampleServerTest {

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun answersEveryEndpointCorrectly(backend: Backend) {
        SampleServer.start(backend).use { server ->
            assertTrue(server.port > 0)
            HttpConnection("127.0.0.1", server.port).use { http ->
                // SHA-256("abc"), the FIPS 180-2 test vector: checks the CPU endpoint against an outside answer.
                assertEquals(
                    HttpResponse(200, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
                    http.get("/hash?text=abc&rounds=1"),
                )
                assertEquals(HttpResponse(200, hexOf(sha256Rounds("x", 3))), http.get("/hash?text=x&rounds=3"))
                // Fan-out: four parts hashed in parallel, combined in order (recomputed here independently).
                val parts = (0 until 4).map { sha256Rounds("fan-$it", 5) }
                val combined = MessageDigest.getInstance("SHA-256").apply { parts.forEach(::update) }.digest()
                assertEquals(HttpResponse(200, hexOf(combined)), http.get("/fanout?text=fan&parts=4&rounds=5"))
                // The Java component's future, awaited by the handler.
                assertEquals(
                    HttpResponse(200, "kettle: ${InventoryService.expectedStock("kettle")} in stock"),
                    http.get("/stock?sku=kettle"),
                )
                assertEquals(HttpResponse(200, "waited 3 ms"), http.get("/delay?ms=3"))
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun handlersRunOnForageOnlyWhenTheBackendIsForage(backend: Backend) {
        SampleServer.start(backend).use { server ->
            HttpConnection("127.0.0.1", server.port).use { http ->
                val where = http.get("/where")
                assertEquals(200, where.status)
                if (backend == Backend.FORAGE) {
                    assertEquals(FORAGE_WORKER, where.body)
                } else {
                    assertTrue(where.body.startsWith("other: DefaultDispatcher-worker"), where.body)
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun badParametersGet400WithAMessage(backend: Backend) {
        SampleServer.start(backend).use { server ->
            HttpConnection("127.0.0.1", server.port).use { http ->
                assertEquals(
                    HttpResponse(400, "rounds must be an integer in 1..100000, was 0"),
                    http.get("/hash?text=a&rounds=0"),
                )
                assertEquals(HttpResponse(400, "sku must be 1 to 64 characters, was missing"), http.get("/stock"))
                assertEquals(
                    HttpResponse(400, "ms must be an integer in 0..10000, was soon"),
                    http.get("/delay?ms=soon"),
                )
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun closeStopsTheServerAndFreesThePort(backend: Backend) {
        val server = SampleServer.start(backend)
        HttpConnection("127.0.0.1", server.port).use { assertEquals(200, it.get("/delay?ms=0").status) }

        server.close()

        assertThrows<ConnectException> { HttpConnection("127.0.0.1", server.port).close() }
    }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun theLoadGeneratorSendsExactlyTheRequestsItIsAskedForAndChecksEveryAnswer(backend: Backend) {
        SampleServer.start(backend).use { server ->
            val load = LoadGenerator(server.port)
            val closed = load.closedLoop("closed", connections = 4, requests = 200, maxMillis = 60_000)
            assertEquals(200, closed.requests)
            assertEquals(0, closed.errors, closed.firstError)
            assertTrue(closed.processCpuNanos > 0 && closed.clientCpuNanos > 0)

            val paced = load.paced("paced", connections = 2, ratePerSecond = 100, seconds = 1)
            assertEquals(100, paced.requests)
            assertEquals(0, paced.errors, paced.firstError)
        }
    }

    @ParameterizedTest
    @EnumSource(Backend::class)
    fun theLoadGeneratorCountsWrongAnswersAsErrors(backend: Backend) {
        SampleServer.start(backend).use { server ->
            val wrong = listOf(MixRequest("/delay?ms=0", "not what the server says"))
            val result = LoadGenerator(server.port, wrong).closedLoop("wrong", connections = 1, requests = 3, maxMillis = 60_000)
            assertEquals(3, result.errors)
            assertTrue(result.firstError!!.contains("wrong body 'waited 0 ms'"), result.firstError)
        }
    }

    @org.junit.jupiter.api.Test
    fun theServerAndTheLoadGeneratorRefuseNonLoopbackHosts() {
        assertThrows<IllegalArgumentException> { SampleServer.start(Backend.FORAGE, host = "0.0.0.0") }
        assertThrows<IllegalArgumentException> { HttpConnection("0.0.0.0", 80) }
    }

    private fun sha256Rounds(text: String, rounds: Int): ByteArray {
        val sha = MessageDigest.getInstance("SHA-256")
        var digest = sha.digest(text.toByteArray())
        repeat(rounds - 1) { digest = sha.digest(digest) }
        return digest
    }

    private fun hexOf(bytes: ByteArray) = bytes.joinToString("") { "%02x".format(it) }
}
