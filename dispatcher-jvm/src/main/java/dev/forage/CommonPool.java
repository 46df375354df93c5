package dev.forage;

/**
 * {@link ForagePool#commonPool()}: made on first use (the initialization-on-demand holder), sized by the system
 * property {@code forage.common.parallelism} or the available processors.
 */
final class CommonPool {
    /** {@code forage.common.parallelism} as set when the pool was made, or null; read before {@link #INSTANCE}. */
    static final String PRESET = System.getProperty("forage.common.parallelism");
    static final ForagePool INSTANCE = create();

    private CommonPool() {
    }

    /** {@link ForagePool#setParallelism} on the common pool: refused if the system property set its size. */
    static void checkResizable() {
        if (PRESET != null) {
            throw new UnsupportedOperationException("setParallelism: the common pool's size was fixed by the "
                    + "system property forage.common.parallelism=" + PRESET + "; allowed: resizing a private pool");
        }
    }

    private static ForagePool create() {
        int threads = Runtime.getRuntime().availableProcessors();
        String property = PRESET;
        if (property != null) {
            try {
                threads = Integer.parseInt(property.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("system property forage.common.parallelism=" + property
                        + " is not an integer; allowed: 1.." + ForagePoolBuilder.MAX_THREADS, e);
            }
        }
        ForagePoolBuilder builder = new ForagePoolBuilder().threads(threads).name("forage-common").daemon(true);
        return new ForagePool(builder.buildRegistry(), true);
    }
}
