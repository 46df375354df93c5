package dev.forage;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

/**
 * Run in a fresh JVM by {@link IdleHeapTest}: builds {@link #POOLS} default pools of two threads, each of which ran
 * one job and went idle (their monitors ended), and prints the heap they hold between them, per pool, as the JVM's class histogram counts
 * it after a full collection (the same numbers as {@code jcmd <pid> GC.class_histogram}).
 */
public final class IdleHeapMain {
    static final int POOLS = 50;
    static final String PREFIX = "heap per idle pool: ";

    private IdleHeapMain() {
    }

    public static void main(String[] args) throws Exception {
        List<ForagePool> pools = new ArrayList<>();
        pools.add(idlePool()); // loads every class an idle pool uses, so the difference below is objects only
        long before = liveBytes();
        for (int i = 0; i < POOLS; i++) {
            pools.add(idlePool());
        }
        awaitNoMonitor(); // idle means the monitors that the first jobs started have lingered and ended too
        long after = liveBytes();
        System.out.println(PREFIX + (after - before) / POOLS + " bytes");
        for (ForagePool pool : pools) {
            pool.close();
        }
    }

    private static void awaitNoMonitor() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().endsWith("-monitor"))) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("pool monitors still run a minute after their pools went idle");
            }
            Thread.sleep(50);
        }
    }

    private static ForagePool idlePool() throws InterruptedException {
        ForagePool pool = ForagePool.builder().threads(2).build();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        ran.await();
        Pools.awaitAllAsleep(pool);
        return pool;
    }

    /** The "Total" bytes of the class histogram, which the diagnostic command takes after a full collection. */
    private static long liveBytes() throws Exception {
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {null}, new String[] {String[].class.getName()});
        for (String line : histogram.split("\n")) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length >= 3 && columns[0].equals("Total")) {
                return Long.parseLong(columns[2]);
            }
        }
        throw new IllegalStateException("no Total line in the class histogram:\n" + histogram);
    }
}
