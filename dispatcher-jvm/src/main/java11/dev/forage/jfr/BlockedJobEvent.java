package dev.forage.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * {@code dev.forage.BlockedJob}: the pool's monitor found a worker that stayed in one job without running (a
 * blocking call nobody marked with {@code managedBlock}) and let a stand-in thread take its place. Committed on
 * the monitor's thread when it counts the job blocked. Public only so that the pool can emit it; an application
 * never creates one.
 */
@Name("dev.forage.BlockedJob")
@Label("Forage Blocked Job")
@Category({"Forage"})
@Description("A job that blocked a Forage pool worker without managedBlock; a stand-in thread took its place")
@StackTrace(false)
public final class BlockedJobEvent extends Event {
    @Label("Pool")
    public String pool;

    @Label("Worker Index")
    public int workerIndex;

    @Label("Job Class")
    @Description("The user's code that blocks: the innermost frame of the worker's stack outside the JDK, Kotlin"
            + " and Forage (for a lambda, the class the JVM generated for it or its enclosing class)")
    public String jobClass;

    @Label("Job Method")
    public String jobMethod;

    @Label("Blocked In")
    @Description("The call at the top of the worker's stack: where the thread blocks")
    public String blockedIn;

    @Label("Blocked For")
    @Description("How long the worker had been in the job when the monitor counted it blocked")
    @Timespan(Timespan.NANOSECONDS)
    public long blockedFor;
}
