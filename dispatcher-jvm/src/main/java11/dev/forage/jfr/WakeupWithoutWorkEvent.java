package dev.forage.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code dev.forage.WakeupWithoutWork}: a pool worker woke from a sleep and its next search of every queue
 * found nothing: a wake-up that cost a park, an unpark and a search for no job (the counter
 * {@code wakeupsWithoutWork} counts the same moments). Public only so that the pool can emit it; an application
 * never creates one.
 */
@Name("dev.forage.WakeupWithoutWork")
@Label("Forage Wake-up Without Work")
@Category({"Forage"})
@Description("A Forage pool worker woke from a sleep and found no work")
@StackTrace(false)
public final class WakeupWithoutWorkEvent extends Event {
    @Label("Pool")
    public String pool;

    @Label("Worker Index")
    public int workerIndex;
}
