package dev.forage;

import dev.forage.jfr.LongJobEvent;
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
 * <p>Whether long jobs are timed follows the recordings: a listener re-reads {@link EventType#isEnabled()} of
 * the long-job event whenever a recording starts or stops, into a volatile flag that workers copy now and then
 * ({@link PoolEvents#longJobsEnabled()}). Adding the listener does not start Flight Recorder.
 */
final class JfrPoolEvents extends PoolEvents {
    private volatile boolean longJobsEnabled;

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
        longJobsEnabled = EventType.getEventType(LongJobEvent.class).isEnabled();
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
    void wakeupWithoutWork(String pool, int workerIndex) {
        WakeupWithoutWorkEvent event = new WakeupWithoutWorkEvent();
        if (event.isEnabled()) {
            event.pool = pool;
            event.workerIndex = workerIndex;
            event.commit();
        }
    }
}
