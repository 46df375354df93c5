package dev.forage.samples.android

import android.app.Activity
import android.os.Bundle
import android.widget.TextView

/**
 * One screen: it counts the primes below the limit given in the intent ([EXTRA_LIMIT]) and shows the
 * result. The counting runs on Forage through [PrimesModel]; the text is set on the main thread; leaving
 * the screen cancels the count.
 */
class PrimesActivity : Activity() {
    private lateinit var status: TextView

    /** The screen's model; internal so that the sample's tests can look at it. */
    internal lateinit var model: PrimesModel
        private set

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        status = TextView(this)
        setContentView(status)
        model = PrimesModel()
        model.observe(::render)
        model.count(intent.getIntExtra(EXTRA_LIMIT, DEFAULT_LIMIT))
    }

    override fun onDestroy() {
        model.clear() // lifecycle cancellation: the count must not outlive the screen
        super.onDestroy()
    }

    private fun render(state: PrimesState) {
        status.text = describe(state)
    }

    companion object {
        /** Intent extra: count the primes below this number. */
        const val EXTRA_LIMIT = "dev.forage.samples.android.LIMIT"

        private const val DEFAULT_LIMIT = 2_000_000

        /** The text shown for [state]. */
        fun describe(state: PrimesState): String = when (state) {
            PrimesState.Idle -> ""
            is PrimesState.Counting -> "Counting the primes below ${state.limit}…"
            is PrimesState.Done -> "${state.count} primes below ${state.limit}"
            is PrimesState.Failed -> "Counting failed: ${state.message}"
        }
    }
}
