package dev.forage.coroutines

import dev.forage.ForagePool
import io.kotest.assertions.throwables.shouldThrow
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import io.kotest.matchers.string.shouldContain
import io.kotest.matchers.types.shouldBeInstanceOf
import java.io.File
import java.lang.reflect.InvocationTargetException
import java.net.URL
import java.net.URLClassLoader

/**
 * The run-time floors of Requirements.kt: the messages, the probe on the kotlinx this run uses, and the check
 * itself on a class loader that holds Forage with a too-old kotlinx (and with the floor kotlinx).
 * The jars come from target/kotlinx-compat (maven-dependency-plugin in dispatcher-jvm/pom.xml and
 * compat-kotlinx/pom.xml, which compiles and runs these specs on the floor kotlinx); outside Maven
 * the class-loader tests are skipped.
 */
class RequirementsSpec : FunSpec({
    test("a Kotlin stdlib below 2.1 is refused with the version found, the floor and the artifact to fix") {
        val message = Requirements.kotlinProblem(KotlinVersion(2, 0, 21))!!
        message shouldContain "kotlin-stdlib 2.0.21"
        message shouldContain "2.1.0 or newer"
        message shouldContain "org.jetbrains.kotlin:kotlin-stdlib"
        Requirements.kotlinProblem(KotlinVersion(2, 1, 0)) shouldBe null
        Requirements.kotlinProblem(KotlinVersion.CURRENT) shouldBe null
    }

    test("a kotlinx below 1.9.0 is refused with the version found, the floor and the artifact to fix") {
        val message = Requirements.kotlinxProblem("1.8.0")
        message shouldContain "kotlinx-coroutines-core 1.8.0 is on the classpath"
        message shouldContain "1.9.0 or newer"
        message shouldContain "org.jetbrains.kotlinx:kotlinx-coroutines-core"
        Requirements.kotlinxProblem(null) shouldContain "an older kotlinx-coroutines-core"
    }

    test("this run's kotlinx passes the probe and is the version the build meant to test") {
        Requirements.hasNamedLimitedParallelism() shouldBe true
        val expected = System.getProperty("forage.kotlinx.expected")
        if (expected != null) {
            // Guards compat-kotlinx: if its kotlinx override stopped working, the run would test the wrong kotlinx.
            Requirements.kotlinxVersionOnClasspath() shouldBe expected
        }
    }

    test("with kotlinx 1.8 on the classpath, creating a dispatcher throws instead of bypassing Forage") {
        val tooOld = jarProperty("forage.kotlinx.tooOld.jar") ?: return@test
        val failure = shouldThrow<InvocationTargetException> { withIsolatedForage(tooOld) { createDispatcher(it) } }
        val cause = failure.targetException.shouldBeInstanceOf<IllegalStateException>()
        cause.message!! shouldContain "kotlinx-coroutines-core 1.8.0 is on the classpath"
        cause.message!! shouldContain "${Requirements.KOTLINX_FLOOR} or newer"
    }

    test("with the floor kotlinx on the classpath, a dispatcher's limitedParallelism is Forage's view") {
        val floor = jarProperty("forage.kotlinx.compat.jar") ?: return@test
        withIsolatedForage(floor) { loader ->
            val dispatcher = createDispatcher(loader)
            try {
                val coroutineDispatcher = Class.forName("kotlinx.coroutines.CoroutineDispatcher", true, loader)
                val view = coroutineDispatcher
                    .getMethod("limitedParallelism", Int::class.javaPrimitiveType, String::class.java)
                    .invoke(dispatcher, 1, null)
                view.javaClass.name shouldBe LimitedForageDispatcher::class.java.name
            } finally {
                dispatcher.javaClass.getMethod("close").invoke(dispatcher)
            }
        }
    }
})

private fun jarProperty(name: String): File? = System.getProperty(name)?.let(::File)?.takeIf { it.isFile }

/** Forage's own classes, the Kotlin stdlib of this run and [kotlinx], in a loader that sees nothing else. */
private fun <T> withIsolatedForage(kotlinx: File, body: (ClassLoader) -> T): T {
    val urls: Array<URL> = arrayOf(
        ForagePool::class.java.protectionDomain.codeSource.location,
        KotlinVersion::class.java.protectionDomain.codeSource.location,
        kotlinx.toURI().toURL(),
    )
    return URLClassLoader(urls, ClassLoader.getPlatformClassLoader()).use { body(it) }
}

/**
 * `ForageDispatcher.from(ForagePool.builder().threads(2).build())` in [loader] (two threads, so that
 * `limitedParallelism(1)` limits something); closes the pool if that throws.
 */
private fun createDispatcher(loader: ClassLoader): Any {
    val poolClass = Class.forName("dev.forage.ForagePool", true, loader)
    val builder = poolClass.getMethod("builder").invoke(null)
    builder.javaClass.getMethod("threads", Int::class.javaPrimitiveType).invoke(builder, 2)
    val pool = builder.javaClass.getMethod("build").invoke(builder)
    try {
        return Class.forName("dev.forage.coroutines.ForageDispatcher", true, loader)
            .getMethod("from", poolClass)
            .invoke(null, pool)
    } catch (e: InvocationTargetException) {
        poolClass.getMethod("close").invoke(pool)
        throw e
    }
}
