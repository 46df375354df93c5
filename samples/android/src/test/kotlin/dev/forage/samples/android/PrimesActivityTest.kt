package dev.forage.samples.android

import android.content.Intent
import android.os.Looper
import android.widget.TextView
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.Shadows.shadowOf
import org.robolectric.annotation.Config
import org.robolectric.annotation.LooperMode

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [34])
@LooperMode(LooperMode.Mode.PAUSED) // a real main Looper: nothing posted to it runs until the test drains it
class PrimesActivityTest {

    private fun launch(limit: Int) = Robolectric.buildActivity(
        PrimesActivity::class.java,
        Intent().putExtra(PrimesActivity.EXTRA_LIMIT, limit),
    ).setup()

    private val PrimesActivity.shownText: String
        get() = (window.decorView.findViewById<android.view.ViewGroup>(android.R.id.content).getChildAt(0) as TextView)
            .text.toString()

    @Test
    fun showsTheCountWhenTheWorkIsDone() {
        // setup() drains the main Looper after each lifecycle step, so the count may already be shown.
        val controller = launch(100_000)
        val activity = controller.get()
        idleMainLooperUntil("the count to be shown") { activity.model.state is PrimesState.Done }

        assertEquals("9592 primes below 100000", activity.shownText) // pi(10^5) = 9592
        controller.pause().stop().destroy()
    }

    @Test
    fun destroyingTheActivityCancelsTheCountAndNothingIsShownAfterwards() {
        // Minutes of work at this limit: the count cannot finish between setup() and destroy().
        val controller = launch(Int.MAX_VALUE)
        val activity = controller.get()
        val job = activity.model.runningJob!!

        controller.pause().stop().destroy()
        idleMainLooperUntil("the count to stop") { job.isCompleted }

        assertTrue("the count must end cancelled, not finished", job.isCancelled)
        assertEquals(PrimesState.Counting(Int.MAX_VALUE), activity.model.state)
        assertEquals("Counting the primes below ${Int.MAX_VALUE}…", activity.shownText)
        shadowOf(Looper.getMainLooper()).idle()
        assertTrue("nothing left queued on the main Looper", shadowOf(Looper.getMainLooper()).isIdle)
    }
}
