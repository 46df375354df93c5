package dev.forage.coroutines

import java.io.BufferedReader
import java.io.InputStreamReader
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CoroutineDispatcher

/**
 * The oldest kotlinx-coroutines and Kotlin standard library that Forage's Kotlin face works with, checked at run
 * time. Both are optional dependencies of Forage, so the versions on a user's classpath are the user's choice,
 * and Maven or Gradle would happily pick older ones. An older kotlinx does not fail: it silently swaps Forage's
 * `limitedParallelism` views for kotlinx's own. An older stdlib fails later with a `NoClassDefFoundError` naming
 * a compiler helper. So every [ForageDispatcher] and every [awaitJoin]/[awaitScope] checks first, and throws an
 * [IllegalStateException] that names the version found, the floor, and the dependency to fix.
 *
 * Each check runs once per class loader (when this object initialises); afterwards a call costs a field read.
 * The floors and why they are what they are: `docs/coroutines.md`, "Requirements and kotlinx internals".
 */
internal object Requirements {
    /**
     * kotlinx-coroutines 1.9.0 added `CoroutineDispatcher.limitedParallelism(parallelism, name)`, the overload
     * Forage overrides (the one-argument form became a hidden bridge to it). On 1.8 the override is never called.
     */
    const val KOTLINX_FLOOR: String = "1.9.0"

    /**
     * Kotlin 2.1.0, the `-api-version` the main code is compiled with: the compiler then emits nothing that an
     * older stdlib lacks, and nothing newer is promised. (With Kotlin 2.2's default API version, the suspend
     * functions called `kotlin.coroutines.jvm.internal.SpillingKt`, which stdlib 2.0.x does not have.) It is
     * also the oldest compiler that reads this jar's Kotlin 2.2 metadata.
     */
    const val KOTLIN_FLOOR: String = "2.1.0"

    /** The kotlinx-coroutines-core resource that holds its version (present in every 1.x release checked). */
    private const val KOTLINX_VERSION_RESOURCE = "META-INF/kotlinx_coroutines_core.version"

    private val kotlinProblem: String? = kotlinProblem(KotlinVersion.CURRENT)

    private val kotlinxProblem: String? =
        if (hasNamedLimitedParallelism()) null else kotlinxProblem(kotlinxVersionOnClasspath())

    /** Throws unless the Kotlin standard library is new enough (what [awaitJoin] and [awaitScope] need). */
    fun requireKotlin() {
        kotlinProblem?.let { throw IllegalStateException(it) }
    }

    /** Throws unless both the Kotlin standard library and kotlinx-coroutines are new enough (any dispatcher). */
    fun requireKotlinAndKotlinx() {
        requireKotlin()
        kotlinxProblem?.let { throw IllegalStateException(it) }
    }

    /** The message for a Kotlin standard library [found] at run time, or null when it is at least the floor. */
    fun kotlinProblem(found: KotlinVersion): String? =
        if (found.isAtLeast(2, 1)) {
            null
        } else {
            "Forage's coroutine dispatcher needs the Kotlin standard library $KOTLIN_FLOOR or newer, but " +
                "kotlin-stdlib $found is on the classpath (Forage is compiled for the stdlib API of Kotlin 2.1 and may " +
                "call what older ones lack). Depend on org.jetbrains.kotlin:kotlin-stdlib $KOTLIN_FLOOR or newer " +
                "(Forage declares it optional, so your build chooses the version; a Kotlin 2.1+ compiler " +
                "brings a matching stdlib)."
        }

    /**
     * The message for a kotlinx-coroutines that lacks the floor's API; [found] is its version as its jar states
     * it, or null when the jar does not say.
     */
    fun kotlinxProblem(found: String?): String =
        "Forage's coroutine dispatcher needs kotlinx-coroutines-core $KOTLINX_FLOOR or newer, but " +
            "${if (found != null) "kotlinx-coroutines-core $found" else "an older kotlinx-coroutines-core"} " +
            "is on the classpath: it lacks CoroutineDispatcher.limitedParallelism(parallelism, name), so " +
            "limitedParallelism would silently bypass Forage. Depend on " +
            "org.jetbrains.kotlinx:kotlinx-coroutines-core $KOTLINX_FLOOR or newer (Forage declares it " +
            "optional, so your build chooses the version; with Maven, `mvn dependency:tree " +
            "-Dincludes=org.jetbrains.kotlinx` shows who brings the old one)."

    /**
     * Whether the kotlinx on the classpath has `limitedParallelism(Int, String?)`. A linkage probe, not a
     * reflective lookup by name, so it still works after R8/ProGuard renamed kotlinx's methods: the call below
     * is compiled as `invokevirtual CoroutineDispatcher.limitedParallelism(ILjava/lang/String;)`, which throws
     * [NoSuchMethodError] when kotlinx's class has no such method.
     */
    fun hasNamedLimitedParallelism(): Boolean =
        try {
            val probe: CoroutineDispatcher = Probe
            probe.limitedParallelism(1, null) === Probe
        } catch (e: NoSuchMethodError) {
            false
        }

    /** The version kotlinx-coroutines-core's jar states, or null (resource missing, e.g. stripped by a packager). */
    fun kotlinxVersionOnClasspath(): String? =
        try {
            val loader = CoroutineDispatcher::class.java.classLoader
            val stream = if (loader != null) {
                loader.getResourceAsStream(KOTLINX_VERSION_RESOURCE)
            } else {
                ClassLoader.getSystemResourceAsStream(KOTLINX_VERSION_RESOURCE)
            }
            // Plain Java I/O: this runs before the stdlib check can report, so it calls no newer stdlib API.
            stream?.let { s ->
                val reader = BufferedReader(InputStreamReader(s, "UTF-8"))
                try {
                    reader.readLine()?.trim()?.takeIf { it.isNotEmpty() }
                } finally {
                    reader.close()
                }
            }
        } catch (e: Exception) {
            null
        }

    /** Answers the probe call; never dispatches anything. */
    private object Probe : CoroutineDispatcher() {
        override fun dispatch(context: CoroutineContext, block: Runnable) {
            throw UnsupportedOperationException("the kotlinx version probe of Forage dispatches nothing")
        }

        override fun limitedParallelism(parallelism: Int, name: String?): CoroutineDispatcher = this

        override fun toString(): String = "ForageKotlinxProbe"
    }
}
