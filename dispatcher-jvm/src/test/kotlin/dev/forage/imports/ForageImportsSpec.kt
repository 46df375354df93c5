package dev.forage.imports

import dev.forage.ForagePool
import dev.forage.coroutines.*
import io.kotest.assertions.withClue
import io.kotest.core.spec.style.FunSpec
import io.kotest.matchers.shouldBe
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import kotlinx.coroutines.*

/**
 * A user's file outside Forage's package that imports all of kotlinx.coroutines and all of dev.forage.coroutines.
 * Being in another package matters: inside dev.forage.coroutines, Forage's declarations would win by package
 * alone, whatever the imports.
 */
class ForageImportsSpec : FunSpec({
    test("pool.asCoroutineDispatcher() with both packages imported by * is Forage's dispatcher, not kotlinx's wrapper") {
        ForagePool.builder().threads(1).name("imports").build().use { pool ->
            // The declared type is the compile-time check: kotlinx's extension returns ExecutorCoroutineDispatcher,
            // which this assignment would refuse.
            @Suppress("DEPRECATION")
            val d: ForageDispatcher = pool.asCoroutineDispatcher()
            (d as Any is ForageDispatcher) shouldBe true
            d shouldBe pool.asForageDispatcher()
            d.limitedParallelism(1).javaClass.name.startsWith("dev.forage.") shouldBe true
        }
    }

    test("Scope.spawn takes a Kotlin lambda without parameters, one with the scope, and the old { -> } form") {
        ForagePool.builder().threads(2).name("spawn-lambdas").build().use { pool ->
            val ran = java.util.concurrent.atomic.AtomicInteger()
            pool.scope { s ->
                s.spawn { ran.incrementAndGet() }                                 // Scope.spawn(Runnable)
                s.spawn { inner -> inner.spawn { ran.incrementAndGet() } }        // the (Scope) -> Unit extension
                s.spawn { -> ran.incrementAndGet() }                              // Runnable, as before
                s.spawn({ inner: dev.forage.Scope -> inner.spawn { ran.incrementAndGet() } }) // spawn(ScopeTask...)
            }
            ran.get() shouldBe 4
        }
    }

    test("README.md, docs/migration.md and docs/faq.md steer to asForageDispatcher() and never show kotlinx's wrapper as a way to Forage") {
        for (name in listOf("README.md", "docs/migration.md", "docs/faq.md")) {
            val text = Files.readString(repoFile(name))
            withClue(name) {
                text.contains("asForageDispatcher()") shouldBe true
                // No code calls asCoroutineDispatcher on anything: a sample is what users copy.
                codeBlocks(text).filter { it.contains(".asCoroutineDispatcher(") } shouldBe emptyList()
                // Prose may name kotlinx's function only in a paragraph (or list item, or table row) that also
                // names Forage's: never without the steer next to it.
                paragraphs(proseOf(text))
                    .filter { it.contains("asCoroutineDispatcher") && !it.contains("asForageDispatcher") }
                    .shouldBe(emptyList())
            }
        }
    }
})

/** The repository's [name], from the module directory that Surefire runs in (dispatcher-jvm or compat-kotlinx). */
private fun repoFile(name: String): Path {
    val here = Paths.get("").toAbsolutePath()
    return generateSequence(here) { it.parent }.map { it.resolve(name) }.firstOrNull { Files.isRegularFile(it) }
        ?: error("$name not found above $here")
}

private val FENCE = Regex("```[a-z]*\\n(.*?)```", RegexOption.DOT_MATCHES_ALL)

private fun codeBlocks(markdown: String): List<String> = FENCE.findAll(markdown).map { it.groupValues[1] }.toList()

private fun proseOf(markdown: String): String = FENCE.replace(markdown, "\n\n")

/** Paragraphs, list items, table rows and headings: split at blank lines and before `-`, `|` and `#` lines. */
private fun paragraphs(prose: String): List<String> =
    prose.split(Regex("\\n\\s*\\n|\\n(?=\\s*[-|#])")).map { it.replace(Regex("\\s+"), " ").trim() }
