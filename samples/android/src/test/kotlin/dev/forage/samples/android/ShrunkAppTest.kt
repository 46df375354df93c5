package dev.forage.samples.android

import android.content.Intent
import android.view.ViewGroup
import android.widget.TextView
import org.junit.Assert.assertEquals
import org.junit.Assert.assertThrows
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.Config
import org.robolectric.annotation.LooperMode

/**
 * The app as shipped: Surefire's `shrunk-app` execution runs this class on the output of R8 (full mode, with the
 * consumer rules inside dispatcher-jvm's jar and the app's `proguard-rules.pro`) in place of the sample's classes
 * and dispatcher-jvm's jar. It reaches the app only as Android does, through the Activity's class name and the
 * views, so everything behind it (the model, `Dispatchers.Forage`, the pool, its field updaters) is R8's renamed
 * and shrunk code: a class R8 broke fails here. Runs only with -Dr8.skip=false, and only in that execution: on
 * unshrunk classes its second test fails, by design.
 */
@RunWith(RobolectricTestRunner::class)
@Config(sdk = [34])
@LooperMode(LooperMode.Mode.PAUSED)
class ShrunkAppTest {

    @Test
    fun theShrunkAppCountsOnForageAndShowsTheResult() {
        val controller = Robolectric.buildActivity(
            PrimesActivity::class.java,
            Intent().putExtra(PrimesActivity.EXTRA_LIMIT, 100_000), // a constant: compiled into this test
        ).setup()
        val text = controller.get().window.decorView.findViewById<ViewGroup>(android.R.id.content).getChildAt(0) as TextView

        idleMainLooperUntil("the count to end") { !text.text.startsWith("Counting the primes") }

        assertEquals("9592 primes below 100000", text.text.toString()) // pi(10^5) = 9592
        controller.pause().stop().destroy()
    }

    /** Guards the test above: it must have run R8's output, not the original classes. */
    @Test
    fun theClassesBehindTheActivityAreR8sRenamedOnes() {
        for (original in listOf("dev.forage.samples.android.PrimesModel", "dev.forage.ForagePool")) {
            assertThrows("$original is on the classpath under its own name", ClassNotFoundException::class.java) {
                Class.forName(original)
            }
        }
    }
}
