package dev.forage.imports

import dev.forage.ForagePool
import dev.forage.coroutines.ForageDispatcher
import dev.forage.coroutines.asForageDispatcher
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import kotlinx.coroutines.*

/**
 * The case Forage cannot close, pinned so that docs/coroutines.md stays true: a file that imports kotlinx.coroutines
 * but not Forage's `asCoroutineDispatcher` gets kotlinx's generic executor wrapper from `pool.asCoroutineDispatcher()`.
 * `asForageDispatcher()` is Forage's whatever else is imported.
 */
class KotlinxOnlyImportsSpec : FunSpec({
    test("with only kotlinx's function imported, pool.asCoroutineDispatcher() is kotlinx's wrapper; asForageDispatcher() is Forage's") {
        ForagePool.builder().threads(1).name("kotlinx-only").build().use { pool ->
            val generic = pool.asCoroutineDispatcher()
            (generic as Any is ForageDispatcher) shouldBe false
            generic.javaClass.name.startsWith("kotlinx.coroutines.") shouldBe true
            (pool.asForageDispatcher() as Any is ForageDispatcher) shouldBe true
        }
    }
})
