package sample

import dev.forage.coroutines.Forage
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext

/**
 * The iOS side of the sample: the same shared [primeReport], called from Swift. The work runs on Forage's native
 * engine (4 workers) and the answer comes back on the main thread, where UIKit or SwiftUI may use it:
 *
 * ```swift
 * let job = PrimesForSwiftKt.primeReport(limit: 200_000) { report in label.text = "\(report)" }
 * // job.cancel(cause: nil) when the screen goes away
 * ```
 */
fun primeReport(limit: Int, onResult: (Report) -> Unit): Job =
    scope.launch {
        val report = primeReport(limit, threads = 4)
        withContext(Dispatchers.Main) { onResult(report) }
    }

/** The app's scope for this work: on Forage's shared pool, one failure does not cancel the others. */
private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Forage)
