@file:OptIn(ExperimentalAtomicApi::class)

package dev.forage.coroutines.engine

import kotlin.concurrent.atomics.AtomicReference
import kotlin.concurrent.atomics.ExperimentalAtomicApi
import kotlinx.coroutines.Runnable

/**
 * The pool's shared FIFO for jobs from outside its workers (Rayon's injector): Michael and Scott's lock-free
 * queue ("Simple, fast, and practical non-blocking and blocking concurrent queue algorithms", PODC 1996).
 * Kotlin/Native's garbage collector makes the node recycling safe (no ABA: a node is not reused while a thread
 * can still see it). The JVM engine's injector is a segmented array queue; a linked queue allocates one node per
 * job, which the native benchmarks' outside-submission row measures.
 */
internal class Injector {
    /**
     * [seq] numbers the nodes in queue order (the sentinel 0): the tail's is the count of jobs ever pushed and the
     * head's the count popped, so the statistics need no counters of their own, which every push and pop would
     * otherwise update on one more shared cache line.
     */
    private class Node(@kotlin.concurrent.Volatile var job: Runnable?) {
        val next = AtomicReference<Node?>(null)
        var seq = 0L // written before the node is linked, read after: the link's CAS publishes it
    }

    private val head = AtomicReference(Node(null)) // the sentinel: its job was taken (or never existed)
    private val tail = AtomicReference(head.load())

    /** Appends [job]; returns whether the queue looked empty before it (the JEC's `queueWasEmpty` hint). */
    fun push(job: Runnable): Boolean {
        val node = Node(job)
        while (true) {
            val last = tail.load()
            val next = last.next.load()
            if (next != null) {
                tail.compareAndSet(last, next) // help a push that linked but has not swung the tail
                continue
            }
            node.seq = last.seq + 1
            if (last.next.compareAndSet(null, node)) {
                tail.compareAndSet(last, node)
                return last === head.load()
            }
        }
    }

    /** The oldest job, or null when empty. */
    fun pop(): Runnable? {
        while (true) {
            val first = head.load()
            val next = first.next.load() ?: return null
            if (head.compareAndSet(first, next)) {
                val job = next.job
                next.job = null // the node is the new sentinel; let the job be collected
                return job
            }
        }
    }

    fun isEmpty(): Boolean = head.load().next.load() == null

    /** Jobs pushed and not yet popped (a snapshot: the head's number, then the newest linked node's). */
    fun size(): Long {
        val popped = head.load().seq
        var last = tail.load()
        while (true) last = last.next.load() ?: break // the tail may lag one push behind its link
        return (last.seq - popped).coerceAtLeast(0L)
    }

    /** Jobs ever pushed. */
    fun pushed(): Long {
        var last = tail.load()
        while (true) last = last.next.load() ?: break
        return last.seq
    }
}
