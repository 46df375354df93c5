package dev.forage.interop;

import dev.forage.TaskWrapper;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The pool job behind {@code supplyAsync}, {@code runAsync} and {@code completeAsync}: completes its future
 * with the supplier's value, or with the supplier's exception wrapped in a {@link CompletionException}
 * (exactly what {@code CompletableFuture.supplyAsync} stores, so {@code join()} and {@code get()} report it
 * the same way). Skips the supplier if the future was completed (for example cancelled) before it ran.
 */
final class AsyncSupply<T> implements Runnable, TaskWrapper {
    private CompletableFuture<T> future;
    private Supplier<? extends T> supplier;
    /** The class of the user's supplier or action, for diagnostics: the job drops the supplier when it runs. */
    private final Class<?> userClass;

    private AsyncSupply(CompletableFuture<T> future, Supplier<? extends T> supplier, Class<?> userClass) {
        this.future = future;
        this.supplier = supplier;
        this.userClass = userClass;
    }

    AsyncSupply(CompletableFuture<T> future, Supplier<? extends T> supplier) {
        this(future, supplier, supplier.getClass());
    }

    static AsyncSupply<Void> of(CompletableFuture<Void> future, final Runnable action) {
        return new AsyncSupply<>(future, () -> {
            action.run();
            return null;
        }, action.getClass());
    }

    @Override
    public Object wrappedTask() {
        return userClass;
    }

    @Override
    public void run() {
        CompletableFuture<T> f = future;
        Supplier<? extends T> s = supplier;
        if (f == null) {
            return; // ran before: the pool runs a job once, but a user may run a job shutdownNow returned
        }
        future = null; // let the supplier and the future be collected while the job object lives on
        supplier = null;
        if (f.isDone()) {
            return;
        }
        try {
            f.complete(s.get());
        } catch (Throwable t) {
            f.completeExceptionally(t instanceof CompletionException ? t : new CompletionException(t));
        }
    }

    @Override
    public String toString() {
        CompletableFuture<T> f = future;
        return "AsyncSupply[" + (f == null ? "ran" : supplier + " -> " + f) + "]";
    }
}
