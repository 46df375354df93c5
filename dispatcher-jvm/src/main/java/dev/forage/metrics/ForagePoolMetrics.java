package dev.forage.metrics;

import dev.forage.ForagePool;
import dev.forage.PoolCounter;
import dev.forage.PoolStatistics;
import dev.forage.QueueWaitHistogram;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for one {@link ForagePool}, read from its {@linkplain ForagePool#statistics() statistics}
 * whenever the registry asks. Every meter carries the tag {@code pool} (the pool's name) plus the tags given
 * here. Micrometer is an optional dependency of Forage: only this package uses it, and nothing in
 * {@code dev.forage} loads it.
 *
 * <pre>{@code
 * ForagePool pool = ForagePool.builder().threads(8).name("compute").build();
 * new ForagePoolMetrics(pool, Tags.of("service", "search")).bindTo(meterRegistry);
 * }</pre>
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code forage.pool.jobs.run}, {@code forage.pool.steals}, ... (one per {@link PoolCounter}, its
 *       {@linkplain PoolCounter#key() key} split into dotted words)</td><td>function counter</td>
 *       <td>{@link PoolCounter#description()}</td></tr>
 *   <tr><td>{@code forage.pool.busy}</td><td>function counter, seconds</td><td>time workers spent busy
 *       ({@link PoolStatistics#busyNanos()}); its rate divided by {@code forage.pool.threads} is the
 *       utilisation</td></tr>
 *   <tr><td>{@code forage.pool.threads}</td><td>gauge</td><td>worker threads</td></tr>
 *   <tr><td>{@code forage.pool.workers}, tag {@code state} = {@code active}, {@code idle},
 *       {@code sleeping}</td><td>gauge</td><td>workers in each state</td></tr>
 *   <tr><td>{@code forage.pool.blocking}, tag {@code state} = {@code blocked}, {@code compensating},
 *       {@code spare}</td><td>gauge</td><td>workers inside blocking sections, threads standing in for them,
 *       and stand-ins waiting within their keep-alive ({@link ForagePool#managedBlock})</td></tr>
 *   <tr><td>{@code forage.pool.queued}, tag {@code queue} = {@code deques}, {@code injector}</td>
 *       <td>gauge</td><td>jobs queued in the workers' deques and in the injector</td></tr>
 *   <tr><td>{@code forage.pool.queue.wait}</td><td>function timer</td><td>how long sampled jobs (one
 *       submission in 64, {@link QueueWaitHistogram}) waited from submission to start: its count and total
 *       time, so {@code rate(total) / rate(count)} is the mean wait of an interval</td></tr>
 *   <tr><td>{@code forage.pool.queue.wait.percentile}, tag {@code percentile} = {@code p50}, {@code p99}</td>
 *       <td>gauge, seconds</td><td>the median and 99th percentile wait of the sampled jobs that started since
 *       the gauge's previous reading (a scrape interval for Prometheus); NaN when none did</td></tr>
 * </table>
 *
 * Each reading takes a fresh snapshot (a sum over the workers, no lock), so the meters of one scrape may come
 * from slightly different moments.
 */
public final class ForagePoolMetrics implements MeterBinder {
    /** The prefix of every meter's name. */
    public static final String PREFIX = "forage.pool.";

    private final ForagePool pool;
    private final Tags tags;

    /** Meters tagged with the pool's name only. */
    public ForagePoolMetrics(ForagePool pool) {
        this(pool, Tags.empty());
    }

    /**
     * Meters tagged with the pool's name and {@code tags}.
     *
     * @throws NullPointerException if {@code pool} or {@code tags} is null
     */
    public ForagePoolMetrics(ForagePool pool, Iterable<Tag> tags) {
        if (pool == null || tags == null) {
            throw new NullPointerException("ForagePoolMetrics: pool and tags must be non-null (pool=" + pool
                    + ", tags=" + tags + "); use Tags.empty() for no extra tags");
        }
        this.pool = pool;
        this.tags = Tags.of("pool", pool.name()).and(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (final PoolCounter counter : PoolCounter.values()) {
            FunctionCounter.builder(meterName(counter), pool, p -> p.statistics().count(counter))
                    .description(counter.description())
                    .tags(tags)
                    .register(registry);
        }
        FunctionCounter.builder(PREFIX + "busy", pool,
                        p -> p.statistics().busyNanos() / (double) TimeUnit.SECONDS.toNanos(1))
                .description("Time workers spent busy: from leaving the idle state until next looking for work")
                .baseUnit("seconds")
                .tags(tags)
                .register(registry);
        gauge(registry, "threads", "Worker threads", null, null, ForagePool::parallelism);
        // One help text per meter name, true for every tag value: Prometheus keeps a single HELP line for a
        // metric family, so a text that describes one state would describe all of them wrongly.
        String workers = "Workers by state: active (running a job), idle (awake, looking for work), sleeping "
                + "(parked until work is posted)";
        gauge(registry, "workers", workers, "state", "active", p -> p.statistics().activeWorkers());
        gauge(registry, "workers", workers, "state", "idle", p -> p.statistics().idleWorkers());
        gauge(registry, "workers", workers, "state", "sleeping", p -> p.statistics().sleepingWorkers());
        String blocking = "Blocking calls by state: blocked (workers in a blocking section or found blocked by the "
                + "monitor), compensating (threads standing in for them), spare (stand-ins waiting within their "
                + "keep-alive)";
        gauge(registry, "blocking", blocking, "state", "blocked", p -> p.statistics().blockedWorkers());
        gauge(registry, "blocking", blocking, "state", "compensating", p -> p.statistics().compensatingThreads());
        gauge(registry, "blocking", blocking, "state", "spare", p -> p.statistics().spareThreads());
        String queued = "Jobs waiting to run, by queue: deques (the workers' own deques) and injector (outside "
                + "submissions, fired timers and fair re-submissions; approximate)";
        gauge(registry, "queued", queued, "queue", "deques", p -> p.statistics().dequeQueuedJobs());
        gauge(registry, "queued", queued, "queue", "injector", p -> p.statistics().injectorQueuedJobs());
        FunctionTimer.builder(PREFIX + "queue.wait", pool, p -> p.statistics().queueWait().samples(),
                        p -> p.statistics().queueWait().totalNanos(), TimeUnit.NANOSECONDS)
                .description("Time sampled jobs (one submission in 64) waited in the queues, from submission to start")
                .tags(tags)
                .register(registry);
        String percentile = "Queue wait of the sampled jobs that started since this gauge's previous reading, at "
                + "the percentile of the tag: p50 (the median), p99 (upper end of its bucket, within a quarter); NaN "
                + "when none started";
        for (int p : new int[] {50, 99}) {
            // The window is held by the function, strongly: Micrometer holds a gauge's object only weakly.
            WaitWindow window = new WaitWindow(pool, p / 100.0);
            Gauge.builder(PREFIX + "queue.wait.percentile", pool, ignored -> window.nextSeconds())
                    .description(percentile)
                    .baseUnit("seconds")
                    .tags(tags.and("percentile", "p" + p))
                    .register(registry);
        }
    }

    /** One quantile of the waits counted between two readings of its gauge. */
    private static final class WaitWindow {
        private final ForagePool pool;
        private final double quantile;
        private final AtomicReference<QueueWaitHistogram> previous;

        WaitWindow(ForagePool pool, double quantile) {
            this.pool = pool;
            this.quantile = quantile;
            this.previous = new AtomicReference<>(pool.statistics().queueWait());
        }

        double nextSeconds() {
            QueueWaitHistogram now = pool.statistics().queueWait();
            QueueWaitHistogram window = now.since(previous.getAndSet(now));
            return window.samples() == 0 ? Double.NaN : window.percentileNanos(quantile) / 1e9;
        }
    }

    /** A gauge of the pool named {@link #PREFIX} + {@code name}, with one more tag unless {@code tagKey} is null. */
    private void gauge(MeterRegistry registry, String name, String description, String tagKey, String tagValue,
            ToDoubleFunction<ForagePool> value) {
        Tags all = tagKey == null ? tags : tags.and(tagKey, tagValue);
        Gauge.builder(PREFIX + name, pool, value).description(description).tags(all).register(registry);
    }

    /**
     * The meter name of {@code counter}: {@code forage.pool.} and the counter's key in dotted words
     * ({@code wakeupsWithoutWork} becomes {@code forage.pool.wakeups.without.work}).
     */
    public static String meterName(PoolCounter counter) {
        String key = counter.key();
        StringBuilder b = new StringBuilder(PREFIX);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c)) {
                b.append('.').append(Character.toLowerCase(c));
            } else {
                b.append(c);
            }
        }
        return b.toString().toLowerCase(Locale.ROOT);
    }
}
