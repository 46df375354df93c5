package dev.forage.context;

import dev.forage.ForageTaskDecorator;
import dev.forage.TaskWrapper;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * Carries OpenTelemetry's current {@link Context} (and so the current span, baggage and any other context value)
 * from the thread that submits a task to the thread that runs it. The context is taken when the task is submitted,
 * made current around the task's run, and the running thread's own context is current again afterwards, even when
 * the task throws or leaves a {@link Scope} of its own open. The running thread's own context comes back, rather
 * than none: a single-threaded pool runs its jobs on the threads that wait in it, so a task may run on its
 * submitter.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .threads(4)
 *         .taskDecorator(new OpenTelemetryTaskDecorator())
 *         .build();
 *
 * Span span = tracer.spanBuilder("request").startSpan();
 * try (Scope scope = span.makeCurrent()) {
 *     pool.execute(() -> Span.current().addEvent("on a worker"));   // the request's span
 * } finally {
 *     span.end();
 * }
 * }</pre>
 *
 * <p>Needs {@code io.opentelemetry:opentelemetry-context} on the class path (an optional dependency of this
 * artifact; {@code opentelemetry-api}, which an instrumented application has, brings it). Nothing else in this
 * artifact needs OpenTelemetry. It does what {@code task -> Context.current().wrap(task)} does, and more: after a
 * task that left a scope open, {@code wrap}'s runnable leaves the task's context on the thread (OpenTelemetry
 * ignores the close of a scope that is not the current one), this decorator puts the thread's own back. Combine it
 * with other decorators through {@link TaskDecorators#compose}.
 *
 * <p>The decorator keeps no state: one instance serves any number of pools and threads.
 */
public final class OpenTelemetryTaskDecorator implements ForageTaskDecorator {
    /** A decorator that carries the current OpenTelemetry context; stateless, so one instance may be shared. */
    public OpenTelemetryTaskDecorator() {
    }

    /**
     * Takes the calling thread's current context and returns a runnable that runs {@code task} with that context
     * current, then makes the running thread's previous context current again.
     *
     * @param task the task to run, not null
     * @return a runnable that runs {@code task} once per call, on the calling thread, and lets its exceptions
     *         through
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public Runnable decorate(Runnable task) {
        if (task == null) {
            throw new NullPointerException("OpenTelemetryTaskDecorator.decorate: task is null; it takes the "
                    + "Runnable to run in the submitter's context");
        }
        return new ContextTask(task, Context.current());
    }

    @Override
    public String toString() {
        return "OpenTelemetryTaskDecorator";
    }

    /** The task with the context of its submission; looked through by diagnostics ({@link TaskWrapper}). */
    private static final class ContextTask implements Runnable, TaskWrapper {
        private final Runnable task;
        private final Context captured;

        ContextTask(Runnable task, Context captured) {
            this.task = task;
            this.captured = captured;
        }

        @Override
        public void run() {
            Context previous = Context.current();
            try (Scope ignored = captured.makeCurrent()) {
                task.run();
            } finally {
                // Closing the scope puts back the thread's own context only if the task closed every scope it
                // opened: OpenTelemetry ignores the close of a scope that is not the current one. A task that left
                // one open would leave its context on the worker, for whatever runs there undecorated next (a
                // stolen join half, the pool's handler). Attached without a scope to close: there is none to
                // return to, this is the thread's base context.
                if (Context.current() != previous) {
                    previous.makeCurrent();
                }
            }
        }

        @Override
        public Object wrappedTask() {
            return task;
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }
}
