package dev.forage.bench.jmh;

import dev.forage.ForagePool;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/** The pools the microbenchmarks compare, by {@code @Param} name, all with the same worker count. */
final class Pools {
    static final String SUBJECTS = "forage,forkjoin,fixed";

    private Pools() {
    }

    /** A started pool: {@code forage}, {@code forkjoin} or {@code fixed}. */
    static java.util.concurrent.Executor start(String subject, int threads) {
        switch (subject) {
            case "forage":
                return ForagePool.builder().threads(threads).name("jmh-forage").build();
            case "forkjoin":
                return new ForkJoinPool(threads);
            case "fixed":
                return Executors.newFixedThreadPool(threads, r -> {
                    Thread t = new Thread(r, "jmh-fixed");
                    t.setDaemon(true);
                    return t;
                });
            default:
                throw new IllegalArgumentException("unknown subject '" + subject + "'; allowed: " + SUBJECTS);
        }
    }

    static void stop(java.util.concurrent.Executor pool) throws InterruptedException {
        if (pool instanceof ForagePool) {
            // The counters behind the score (sleeps, wake-ups, steals per trial), in the fork's output.
            System.err.println("Forage " + ((ForagePool) pool).statistics());
            ((ForagePool) pool).close();
        } else {
            ExecutorService es = (ExecutorService) pool;
            es.shutdown();
            es.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
