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
    @Description("The user's code: the class of the task inside Forage's wrappers (for a lambda, the class the JVM"
            + " generated for it); for a coroutine, the class of its innermost suspended frame outside kotlinx")
    public String jobClass;

    @Label("Coroutine Name")
    @Description("The coroutine's CoroutineName, if the job resumed a coroutine that has one")
    public String coroutineName;

    @Label("Wrapper Class")
    @Description("The class of the job the pool ran, when it wrapped the user's code (a join half, a submitted"
            + " future, a coroutine resumption); empty for a plain Runnable")
    public String wrapperClass;

    @Label("Job Duration")
    @Timespan(Timespan.NANOSECONDS)
    public long jobDuration;
}
