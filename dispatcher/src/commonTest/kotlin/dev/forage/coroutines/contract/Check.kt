package dev.forage.coroutines.contract

// The suite's assertions. kotlin-test has no Wasm-JS artifact on Maven Central for this Kotlin release, so the
// contract suite carries its own few checks and its own runner (ContractRunner) and runs alike on every target.

/** A failed contract check; the runner reports it as a test failure. */
class ContractFailure(message: String, cause: Throwable? = null) : AssertionError(message, cause)

fun fail(message: String): Nothing = throw ContractFailure(message)

fun <T> checkEquals(expected: T, actual: T, what: String) {
    if (expected != actual) fail("$what: expected <$expected>, was <$actual>")
}

fun checkTrue(condition: Boolean, what: String) {
    if (!condition) fail(what)
}

/**
 * Runs [block] and returns what it threw, which must be a [T]. Inline, so [block] may suspend where the caller can.
 */
inline fun <reified T : Throwable> checkThrows(what: String, block: () -> Unit): T {
    val thrown = try {
        block()
        null
    } catch (t: Throwable) {
        t
    }
    if (thrown is T) return thrown
    throw ContractFailure("$what: expected ${T::class.simpleName}, ${if (thrown == null) "nothing" else "got $thrown"} was thrown", thrown)
}
