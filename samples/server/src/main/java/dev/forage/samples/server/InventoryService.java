package dev.forage.samples.server;

import dev.forage.ForagePool;
import dev.forage.interop.ForageFutures;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A Java component the Kotlin service calls: it answers with a {@link CompletableFuture}, as Java libraries do.
 * Built on a Forage pool it uses the interop facade, so the lookup runs on the same workers as the Kotlin
 * handlers; built on an {@link Executor} it uses the JDK's {@code supplyAsync} (the usual Java setup, for the
 * comparison with {@code Dispatchers.Default}).
 *
 * <pre>{@code
 * InventoryService inventory = InventoryService.onForage(pool);
 * int left = inventory.stockLevel("kettle").join();
 * }</pre>
 */
public final class InventoryService {
    /** Rounds of hashing per lookup: the CPU cost of a lookup (a stand-in for parsing and scoring). */
    static final int LOOKUP_ROUNDS = 200;
    private static final int MAX_STOCK = 1000;

    private final Launcher launcher;

    private InventoryService(Launcher launcher) {
        this.launcher = launcher;
    }

    /** Lookups run on {@code pool} through {@link ForageFutures#supplyAsync(Supplier, ForagePool)}. */
    public static InventoryService onForage(ForagePool pool) {
        return new InventoryService(lookup -> ForageFutures.supplyAsync(lookup, pool));
    }

    /** Lookups run on {@code executor} through {@link CompletableFuture#supplyAsync(Supplier, Executor)}. */
    public static InventoryService onExecutor(Executor executor) {
        return new InventoryService(lookup -> CompletableFuture.supplyAsync(lookup, executor));
    }

    /**
     * How many units of {@code sku} are in stock, between 0 and 999: a pure function of the name, so callers
     * (and tests) can check the answer with {@link #expectedStock(String)}.
     *
     * @throws IllegalArgumentException if {@code sku} is empty or longer than 64 characters
     */
    public CompletableFuture<Integer> stockLevel(String sku) {
        if (sku == null || sku.isEmpty() || sku.length() > 64) {
            throw new IllegalArgumentException("sku must be 1 to 64 characters, was " + (sku == null ? "null" : "'" + sku + "'"));
        }
        return launcher.supply(() -> expectedStock(sku));
    }

    /** The stock level {@link #stockLevel(String)} reports for {@code sku}, computed on the calling thread. */
    public static int expectedStock(String sku) {
        byte[] digest = Hashing.sha256Rounds(sku, LOOKUP_ROUNDS);
        int value = ((digest[0] & 0xff) << 8) | (digest[1] & 0xff);
        return value % MAX_STOCK;
    }

    /** Where a lookup runs. */
    private interface Launcher {
        CompletableFuture<Integer> supply(Supplier<Integer> lookup);
    }
}
