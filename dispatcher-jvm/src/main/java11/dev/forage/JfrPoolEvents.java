package dev.forage;

import dev.forage.jfr.BlockedJobEvent;
import dev.forage.jfr.LongJobEvent;
import dev.forage.jfr.QueueWaitEvent;
import dev.forage.jfr.WakeupWithoutWorkEvent;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;

/**
 * {@link PoolEvents} for a JVM with JDK Flight Recorder (Java 11+). Compiled for Java 11 from its own source
 * folder and loaded only by {@link PoolEvents#INSTANCE}, by name, after it found {@code jdk.jfr.Event}: no other
 * class of the engine names it or a {@code jdk.jfr} type.
 *
 * <p>Whether an event is made at all follows the recordings: a listener re-reads {@link EventType#isEnabled()}
 * of each event whenever a recording starts or stops, into volatile flags; workers copy the long-job flag now and
 * then ({@link PoolEvents#longJobsEnabled()}). Adding the listener does not start Flight Recorder. Nothing here
 * creates an event object while its flag is off: an event class's static initializer registers it with Flight
 * Recorder, and the first registration in a JVM builds the recorder's metadata, about a tenth of a second of CPU
 * that would land on whichever worker first woke without work.
 */
final class JfrPoolEvents extends PoolEvents {
    private volatile boolean longJobsEnabled;
    private volatile boolean wakeupsEnabled;
    private volatile boolean blockedJobsEnabled;
    private volatile boolean queueWaitsEnabled;

    JfrPoolEvents() {
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recorderInitialized(FlightRecorder recorder) {
                refresh();
            }

            @Override
            public void recordingStateChanged(Recording recording) {
                refresh();
            }
        });
        if (FlightRecorder.isInitialized()) {
            refresh();
        }
    }

    private void refresh() {
        // Only once a recorder exists (its listener calls, or the constructor's check): the EventType lookups
        // register the event classes, on this thread rather than on a worker.
        longJobsEnabled = EventType.getEventType(LongJobEvent.class).isEnabled();
        wakeupsEnabled = EventType.getEventType(WakeupWithoutWorkEvent.class).isEnabled();
        blockedJobsEnabled = EventType.getEventType(BlockedJobEvent.class).isEnabled();
        queueWaitsEnabled = EventType.getEventType(QueueWaitEvent.class).isEnabled();
    }

    @Override
    boolean longJobsEnabled() {
        return longJobsEnabled;
    }

    @Override
    void longJob(String pool, int workerIndex, Runnable job, long nanos) {
        LongJobEvent event = new LongJobEvent();
        if (event.isEnabled()) {
            event.pool = pool;
            event.workerIndex = workerIndex;
            TaskName name = TaskName.of(job);
            event.jobClass = name.jobClass;
            event.coroutineName = name.coroutineName;
            event.wrapperClass = name.wrapperClass;
            event.jobDuration = nanos;
            event.commit();
        }
    }

    @Override
    boolean blockedJobsEnabled() {
        return blockedJobsEnabled;
    }

    @Override
    void blockedJob(String pool, int workerIndex, Thread thread, long nanos) {
        BlockedJobEvent event = new BlockedJobEvent();
        if (!event.isEnabled()) {
            return;
        }
        event.pool = pool;
        event.workerIndex = workerIndex;
        event.blockedFor = nanos;
        // From the blocking call at the top down to the worker's loop: the first frame of code that is neither the
        // JDK's, Kotlin's nor Forage's is the user's job (the class the long-job event would name, or the lambda's
        // enclosing class), the top frame is the call it blocks in.
        StackTraceElement[] stack = thread.getStackTrace();
        if (stack.length > 0) {
            event.blockedIn = stack[0].getClassName() + "." + stack[0].getMethodName();
        }
        for (StackTraceElement frame : stack) {
            String c = frame.getClassName();
            if (!library(c)) {
                event.jobClass = c;
                event.jobMethod = frame.getMethodName();
                break;
            }
        }
        event.commit();
    }

    private static boolean library(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("com.sun.")
                || className.startsWith("kotlin.") || className.startsWith("kotlinx.")
                || className.startsWith("dev.forage.");
    }

    @Override
    void wakeupWithoutWork(String pool, int workerIndex) {
        if (!wakeupsEnabled) {
            return;
        }
        WakeupWithoutWorkEvent event = new WakeupWithoutWorkEvent();
        if (event.isEnabled()) {
            event.pool = pool;
            event.workerIndex = workerIndex;
            event.commit();
        }
    }

    @Override
    Object queueWaitBegin() {
        if (!queueWaitsEnabled) {
            return null;
        }
        QueueWaitEvent event = new QueueWaitEvent();
        event.begin(); // the event's start is the submission, its duration the wait
        return event;
    }

    @Override
    void queueWaitEnd(Object begun, String pool, Runnable job) {
        QueueWaitEvent event = (QueueWaitEvent) begun;
        event.end();
        if (event.shouldCommit()) { // enabled, and the wait passed the recording's threshold
            event.pool = pool;
            TaskName name = TaskName.of(job);
            event.jobClass = name.jobClass;
            event.coroutineName = name.coroutineName;
            event.commit();
        }
    }
}
