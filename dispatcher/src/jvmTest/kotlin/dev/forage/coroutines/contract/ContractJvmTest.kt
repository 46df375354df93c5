package dev.forage.coroutines.contract

import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory

actual val poolsHaveThreads: Boolean = true

/**
 * The contract suite on the JVM, on dispatcher-jvm's Java engine: one JUnit test per case, so that Surefire
 * reports it (TEST-dev.forage.coroutines.contract.ContractJvmTest.xml) and fails the build on a failure.
 */
class ContractJvmTest {
    @TestFactory
    fun contract(): List<DynamicTest> = contractCases().map { case ->
        DynamicTest.dynamicTest(case.name) {
            val result = runBlocking { runCase(case) }
            result.failure?.let { throw it }
        }
    }
}
