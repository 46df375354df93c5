package dev.forage.interop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The pool job behind {@code supplyAsync}, {@code runAsync} and {@code completeAsync}: completes its future
 * with the supplier's value, or with the supplier's exception wrapped in a {@link CompletionException}
 * (exactly what {@code CompletableFuture.supplyAsync} stores, so {@code join()} and {@code get()} report it
 * the same way). Skips the supplier if the future was completed (for example cancelled) before it ran.
 */
final class AsyncSupply<T> implements Runnable {
    private CompletableFuture<T> future;
    private Supplier<? extends T> supplier;

    AsyncSupply(CompletableFuture<T> future, Supplier<? extends T> supplier) {
        this.future = future;
        this.supplier = supplier;
    }

    static AsyncSupply<Void> of(CompletableFuture<Void> future, final Runnable action) {
        return new AsyncSupply<>(future, () -> {
            action.run();
            return null;
        });
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
