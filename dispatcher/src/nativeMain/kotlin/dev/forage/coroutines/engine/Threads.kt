@file:OptIn(ExperimentalForeignApi::class)

package dev.forage.coroutines.engine

import kotlinx.cinterop.COpaquePointer
import kotlinx.cinterop.ExperimentalForeignApi
import kotlinx.cinterop.StableRef
import kotlinx.cinterop.alloc
import kotlinx.cinterop.asStableRef
import kotlinx.cinterop.convert
import kotlinx.cinterop.memScoped
import kotlinx.cinterop.ptr
import kotlinx.cinterop.staticCFunction
import platform.posix.PTHREAD_CREATE_DETACHED
import platform.posix.pthread_attr_destroy
import platform.posix.pthread_attr_init
import platform.posix.pthread_attr_setdetachstate
import platform.posix.pthread_attr_setstacksize
import platform.posix.pthread_attr_t
import platform.posix.pthread_create
import platform.posix.pthread_tVar

private class ThreadStart(val name: String, val body: () -> Unit)

/**
 * A worker thread's stack: 8 MiB, Linux's usual default, set explicitly because the defaults differ by platform
 * (Darwin gives secondary threads 512 KiB, Windows 2 MiB) and a stack overflow on Kotlin/Native ends the process.
 * It is address space reserved, not memory: pages are committed as the stack grows.
 */
internal const val WORKER_STACK_BYTES: Long = 8L * 1024 * 1024

/**
 * Starts a detached POSIX thread with a [WORKER_STACK_BYTES] stack that runs [body] ([name] is for errors:
 * Kotlin/Native's posix bindings have no pthread_setname_np). Detached: nobody joins it; the pool counts its
 * threads out itself and waits on that count when it closes. Kotlin/Native's memory manager attaches the thread on
 * its first Kotlin call.
 */
internal fun startWorkerThread(name: String, body: () -> Unit) {
    val start = StableRef.create(ThreadStart(name, body))
    memScoped {
        val attr = alloc<pthread_attr_t>()
        pthread_attr_init(attr.ptr)
        pthread_attr_setdetachstate(attr.ptr, PTHREAD_CREATE_DETACHED)
        pthread_attr_setstacksize(attr.ptr, WORKER_STACK_BYTES.convert())
        val id = alloc<pthread_tVar>()
        val rc = pthread_create(id.ptr, attr.ptr, staticCFunction(::threadMain), start.asCPointer())
        pthread_attr_destroy(attr.ptr)
        if (rc != 0) {
            start.dispose()
            throw IllegalStateException("could not start thread $name: pthread_create returned $rc")
        }
    }
}

private fun threadMain(arg: COpaquePointer?): COpaquePointer? {
    val ref = arg!!.asStableRef<ThreadStart>()
    val start = ref.get()
    ref.dispose()
    start.body()
    return null
}
