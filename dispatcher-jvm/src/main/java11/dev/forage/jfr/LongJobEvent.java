package dev.forage.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * {@code dev.forage.LongJob}: a job that a pool worker ran for at least {@code forage.jfr.longJobMillis}
 * (default 100 ms), wall time from start to end, including the jobs it ran itself while it waited in a join or
 * a scope. Committed on the worker's thread when the job ends, so the event's own start time is the job's end.
 * Public only so that the pool can emit it; an application never creates one.
 */
@Name("dev.forage.LongJob")
@Label("Forage Long Job")
@Category({"Forage"})
@Description("A job that ran longer than forage.jfr.longJobMillis on a Forage pool worker")
@StackTrace(false)
public final class LongJobEvent extends Event {
    @Label("Pool")
    public String pool;

    @Label("Worker Index")
    public int workerIndex;

    @Label("Job Class")
    @Description("The class of the job's Runnable (for a lambda, the class the JVM generated for it)")
    public String jobClass;

    @Label("Job Duration")
    @Timespan(Timespan.NANOSECONDS)
    public long jobDuration;
}
