package dev.forage.interop;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code invokeAll} and {@code invokeAny} of {@link ForageExecutorService}. Unlike
 * {@code AbstractExecutorService}'s versions, their waits help on a pool worker, so a task may call them on
 * a pool of one worker without deadlocking.
 */
final class Invocations {
    private Invocations() {
    }

    /**
     * Creates one future per task (a null task throws before anything runs), dispatches them in order until
     * the timeout, waits for all (or the timeout), cancels what is not done, and returns every future in the
     * tasks' order. An expired timeout cancels the tasks not dispatched yet, as it cancels the unfinished ones.
     */
    static <T> List<Future<T>> invokeAll(ExecutorCore executor, Collection<? extends Callable<T>> tasks,
            long timeoutNanos) throws InterruptedException {
        executor.notNull(tasks, "invokeAll", "tasks");
        boolean timed = timeoutNanos != Waiting.FOREVER;
        long deadline = timed ? System.nanoTime() + timeoutNanos : 0L;
        List<SubmittedTask<T>> created = new ArrayList<>(tasks.size());
        for (Callable<T> task : tasks) {
            if (task == null) {
                throw new NullPointerException("invokeAll on the " + executor.who() + ": tasks must not contain "
                        + "null (element " + created.size() + " is null)");
            }
            created.add(new SubmittedTask<>(task));
        }
        List<Future<T>> futures = new ArrayList<Future<T>>(created);
        boolean allDone = false;
        try {
            for (SubmittedTask<T> task : created) {
                if (timed && System.nanoTime() - deadline >= 0) {
                    return futures; // the timeout elapsed while dispatching: the finally cancels the rest
                }
                executor.dispatch(task);
            }
            for (Future<T> f : futures) {
                if (f.isDone()) {
                    continue;
                }
                try {
                    if (timed) {
                        f.get(Math.max(deadline - System.nanoTime(), 0L), TimeUnit.NANOSECONDS);
                    } else {
                        f.get();
                    }
                } catch (ExecutionException | CancellationException e) {
                    // That task is done; its future reports the outcome.
                } catch (TimeoutException e) {
                    return futures;
                }
            }
            allDone = true;
            return futures;
        } finally {
            if (!allDone) {
                cancelAll(futures);
            }
        }
    }

    /**
     * Submits every task and returns the first successful result; cancels the others on the way out. When
     * every task fails, throws {@link ExecutionException} with the last failure as its cause.
     */
    static <T> T invokeAny(ExecutorCore executor, Collection<? extends Callable<T>> tasks,
            long timeoutNanos) throws InterruptedException, ExecutionException, TimeoutException {
        executor.notNull(tasks, "invokeAny", "tasks");
        int n = tasks.size();
        if (n == 0) {
            throw new IllegalArgumentException("invokeAny on the " + executor.who() + ": tasks must not be empty "
                    + "(there is nothing to return)");
        }
        for (Callable<T> task : tasks) {
            if (task == null) {
                throw new NullPointerException("invokeAny on the " + executor.who() + ": tasks must not contain "
                        + "null");
            }
        }
        FirstSuccess<T> outcome = new FirstSuccess<>(n);
        List<Future<T>> futures = new ArrayList<>(n);
        try {
            for (Callable<T> task : tasks) {
                if (outcome.result.isDone()) {
                    break; // a winner already: no need to start the rest
                }
                futures.add(executor.dispatch(new SubmittedTask<>(outcome.track(task), task.getClass())));
            }
            if (!Waiting.await(outcome.decided, timeoutNanos)) {
                throw new TimeoutException("invokeAny on the " + executor.who() + ": no task succeeded within "
                        + timeoutNanos + " ns (" + outcome.failures.get() + " of " + n + " failed)");
            }
            return outcome.get();
        } finally {
            cancelAll(futures);
        }
    }

    private static <T> void cancelAll(List<Future<T>> futures) {
        for (Future<T> f : futures) {
            f.cancel(true);
        }
    }

    /** Collects the outcome of invokeAny's tasks: the first success, or all failures. */
    private static final class FirstSuccess<T> {
        /** Holds the winner's value, or the last failure once all failed. */
        final CompletableFuture<T> result = new CompletableFuture<>();
        /** Released once {@link #result} is decided; invokeAny waits on it. */
        final LatchStack decided = new LatchStack();
        final AtomicInteger failures = new AtomicInteger();
        private final int tasks;
        private final List<Throwable> errors = new ArrayList<>();

        FirstSuccess(int tasks) {
            this.tasks = tasks;
        }

        Callable<T> track(final Callable<T> task) {
            return () -> {
                T value;
                try {
                    value = task.call();
                } catch (Throwable t) {
                    failed(t);
                    throw t;
                }
                result.complete(value);
                decided.releaseAll();
                return value;
            };
        }

        private void failed(Throwable t) {
            synchronized (errors) {
                errors.add(t);
            }
            if (failures.incrementAndGet() == tasks) {
                result.completeExceptionally(t);
                decided.releaseAll();
            }
        }

        /** The winner's value, or the failures as one ExecutionException. Only once {@link #result} is done. */
        T get() throws ExecutionException {
            if (!result.isCompletedExceptionally()) {
                return result.join();
            }
            ExecutionException e;
            synchronized (errors) {
                Throwable last = errors.get(errors.size() - 1);
                e = new ExecutionException("invokeAny: all " + tasks + " tasks failed; the cause is the last "
                        + "failure, the others are suppressed", last);
                for (Throwable t : errors) {
                    if (t != last) {
                        e.addSuppressed(t);
                    }
                }
            }
            throw e;
        }
    }
}
