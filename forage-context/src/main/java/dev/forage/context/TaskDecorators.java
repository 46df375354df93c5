package dev.forage.context;

import dev.forage.ForageTaskDecorator;
import java.util.Arrays;

/**
 * Combines task decorators: a pool takes one {@link ForageTaskDecorator}, and an application usually carries more
 * than one context (a logging MDC, a tracing context, a security context).
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder()
 *         .threads(4)
 *         .taskDecorator(TaskDecorators.compose(new MdcTaskDecorator(), new OpenTelemetryTaskDecorator()))
 *         .build();
 * }</pre>
 *
 * <p>Uses neither SLF4J nor OpenTelemetry: it works with any decorators, yours included.
 */
public final class TaskDecorators {
    private TaskDecorators() {
    }

    /**
     * One decorator that applies {@code decorators} nested, the first outermost:
     * {@code compose(a, b).decorate(task)} is {@code a.decorate(b.decorate(task))}. So on the submitting thread
     * {@code b} captures before {@code a}; on the thread that runs the task, {@code a} sets its context first and
     * puts the thread's own back last, and {@code b}'s context is set inside {@code a}'s. Order matters only when
     * two decorators touch the same state (the later one wins inside the task).
     *
     * <p>With no decorators, the result returns each task as it is; with one, it is that decorator.
     *
     * @param decorators the decorators, outermost first; neither the array nor an element may be null. The array
     *                   is copied: changing it afterwards does not change the result
     * @return a decorator for {@code ForagePoolBuilder.taskDecorator}; its {@code decorate} throws
     *         {@link NullPointerException} for a null task or when one of {@code decorators} returns null
     * @throws NullPointerException if {@code decorators} or one of its elements is null
     */
    public static ForageTaskDecorator compose(ForageTaskDecorator... decorators) {
        if (decorators == null) {
            throw new NullPointerException("TaskDecorators.compose: the decorators array is null; pass the "
                    + "decorators themselves, outermost first, or none");
        }
        ForageTaskDecorator[] copy = decorators.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == null) {
                throw new NullPointerException("TaskDecorators.compose: decorator " + i + " of " + copy.length
                        + " is null; every decorator must be a ForageTaskDecorator, such as new MdcTaskDecorator()");
            }
        }
        return copy.length == 1 ? copy[0] : new Composed(copy);
    }

    /** Two or more decorators (or none), applied from the last to the first so that the first is outermost. */
    private static final class Composed implements ForageTaskDecorator {
        private final ForageTaskDecorator[] decorators;

        Composed(ForageTaskDecorator[] decorators) {
            this.decorators = decorators;
        }

        @Override
        public Runnable decorate(Runnable task) {
            if (task == null) {
                throw new NullPointerException("decorate: task is null; " + this
                        + " takes the Runnable the pool was given");
            }
            Runnable decorated = task;
            for (int i = decorators.length - 1; i >= 0; i--) {
                Runnable inner = decorated;
                decorated = decorators[i].decorate(inner);
                // Named here, where it is known which one: the pool would only say that its decorator returned null.
                if (decorated == null) {
                    throw new NullPointerException("decorator " + i + " of " + this + " returned null for " + inner
                            + "; a ForageTaskDecorator must return a Runnable that runs the task it was given");
                }
            }
            return decorated;
        }

        @Override
        public String toString() {
            return "TaskDecorators.compose" + Arrays.toString(decorators);
        }
    }
}
