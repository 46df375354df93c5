package dev.forage.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * {@code dev.forage.QueueWait}: how long a submitted job waited in a pool's queues before a thread started it. The
 * event's start is the submission and its duration the wait, so a recording's {@code threshold} setting keeps only
 * the long waits. Made for the jobs the pool samples for its queue-wait statistics (one submission in 64), and
 * off unless a recording enables it:
 * {@code jcmd <pid> JFR.start settings=profile +dev.forage.QueueWait#enabled=true}, or
 * {@code -XX:StartFlightRecording:dev.forage.QueueWait#enabled=true,dev.forage.QueueWait#threshold=1ms} (JDK 17+).
 * Public only so that the pool can emit it; an application never creates one.
 */
@Name("dev.forage.QueueWait")
@Label("Forage Queue Wait")
@Category({"Forage"})
@Description("A sampled job's wait from submission to start on a Forage pool (one submission in 64)")
@StackTrace(false)
@Enabled(false)
@Threshold("0 ms")
public final class QueueWaitEvent extends Event {
    @Label("Pool")
    public String pool;

    @Label("Job Class")
    @Description("The user's code: the class of the task inside Forage's wrappers; for a coroutine, the class of its"
            + " innermost suspended frame outside kotlinx")
    public String jobClass;

    @Label("Coroutine Name")
    @Description("The coroutine's CoroutineName, if the job resumed a coroutine that has one")
    public String coroutineName;
}
