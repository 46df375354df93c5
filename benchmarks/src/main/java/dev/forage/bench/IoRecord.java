package dev.forage.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The IO benchmark's record (docs/results/http-io.tsv, written by {@code samples/http-io/bench.sh} with
 * {@code WRITE_RESULTS=1}): every round of every backend. Medians over the rounds, ratios to the best Netty
 * transport, and the table the docs show are computed here, so the docs and the record cannot disagree.
 */
public final class IoRecord {
    /** The columns of a round, as bench.sh writes them, and whether higher is better. */
    public enum Column {
        SAT_RPS("sat_rps", true),
        MOD_P50_US("mod_p50_us", false),
        MOD_P99_US("mod_p99_us", false),
        MOD_RPS("mod_rps", true),
        LOW_CPU_US_PER_REQ("low_cpu_us_per_req", false),
        LOW_RPS("low_rps", true),
        MIX_P99_US("mix_p99_us", false);

        public final String id;
        public final boolean higherIsBetter;

        Column(String id, boolean higherIsBetter) {
            this.id = id;
            this.higherIsBetter = higherIsBetter;
        }

        public static Column of(String id) {
            for (Column c : values()) {
                if (c.id.equals(id)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown IO column " + id + "; allowed: sat_rps, mod_p50_us, "
                    + "mod_p99_us, mod_rps, low_cpu_us_per_req, low_rps, mix_p99_us");
        }
    }

    public static final List<String> NETTY = List.of("netty-epoll", "netty-nio");

    private final Map<String, String> header = new LinkedHashMap<>();
    /** Per backend (in the order of the first round), per column, the rounds' values. */
    private final Map<String, Map<Column, List<Double>>> rounds = new LinkedHashMap<>();
    /** Per backend, per column, each window's value by "round/window" (a record written before windows: empty). */
    private final Map<String, Map<Column, Map<String, Double>>> windows = new LinkedHashMap<>();

    /**
     * A comparison window by window: the ratios of one backend's window to another's same window (run back to back,
     * in the order bench.sh rotates), their median, and a distribution-free interval of at least 95 % for that
     * median (the order statistics a two-sided sign test bounds). The interval, not the median, decides the
     * verdict: {@code ahead} or {@code behind} only when it excludes 1, else {@code level}.
     */
    public static final class Paired {
        /** Fewer pairs bound nothing: the smallest and largest of 5 cover their median only 1 - 2/32 of the time. */
        static final int MIN_PAIRS = 6;

        /** From best to worst, so that the worse of two verdicts is the greater. */
        public enum Verdict {
            AHEAD, LEVEL, BEHIND;

            @Override
            public String toString() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        public final String against;
        public final double median;
        public final double low;
        public final double high;
        public final int n;
        public final Verdict verdict;

        Paired(String against, List<Double> ratios, boolean higherIsBetter) {
            if (ratios.size() < MIN_PAIRS) {
                throw new IllegalArgumentException("a window-by-window comparison needs " + MIN_PAIRS
                        + " or more pairs of windows "
                        + "(with fewer, no interval of 95 % exists); the IO record has " + ratios.size()
                        + " against " + against);
            }
            List<Double> sorted = new ArrayList<>(ratios);
            Collections.sort(sorted);
            this.against = against;
            this.n = sorted.size();
            this.median = Stats.of(ratios).median;
            int j = signTestRank(n);
            this.low = sorted.get(j - 1);
            this.high = sorted.get(n - j);
            boolean better = higherIsBetter ? low > 1 : high < 1;
            boolean worse = higherIsBetter ? high < 1 : low > 1;
            this.verdict = better ? Verdict.AHEAD : worse ? Verdict.BEHIND : Verdict.LEVEL;
        }

        /**
         * The largest rank j with P(B &lt; j) &le; 2.5 % for B ~ Binomial(n, 1/2): the j-th smallest and the j-th
         * largest of n values bound their median with at least 95 % confidence, whatever their distribution.
         */
        static int signTestRank(int n) {
            double p = Math.pow(0.5, n);
            double below = 0;
            int j = 0;
            for (int i = 0; i <= n; i++) {
                below += p;
                if (below > 0.025) {
                    break;
                }
                j = i + 1;
                p = p * (n - i) / (i + 1);
            }
            return j;
        }

        @Override
        public String toString() {
            return Stats.format(median) + " (" + Stats.format(low) + "–" + Stats.format(high) + ")";
        }
    }

    public static IoRecord parse(String tsv) {
        IoRecord r = new IoRecord();
        List<String> columns = null;
        for (String line : tsv.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f[0].equals("window")) {
                if (f.length != 6) {
                    throw new IllegalArgumentException("a window line has 6 fields (window, round, backend, column, "
                            + "window, value): " + line);
                }
                Map<String, Double> w = r.windows.computeIfAbsent(f[2], k -> new LinkedHashMap<>())
                        .computeIfAbsent(Column.of(f[3]), k -> new LinkedHashMap<>());
                if (w.put(f[1] + "/" + f[4], Double.parseDouble(f[5])) != null) {
                    throw new IllegalArgumentException("window " + f[4] + " of round " + f[1] + " twice: " + line);
                }
                continue;
            }
            if (f.length == 2) {
                r.header.put(f[0], f[1]);
                if (f[0].equals("columns")) {
                    columns = List.of(f[1].split(" "));
                }
                continue;
            }
            if (columns == null || f.length != columns.size()) {
                throw new IllegalArgumentException("a round before the columns line, or of the wrong width: " + line);
            }
            Map<Column, List<Double>> b = r.rounds.computeIfAbsent(f[1], k -> new LinkedHashMap<>());
            for (int i = 2; i < f.length; i++) {
                b.computeIfAbsent(Column.of(columns.get(i)), k -> new ArrayList<>()).add(Double.parseDouble(f[i]));
            }
        }
        if (r.rounds.isEmpty()) {
            throw new IllegalArgumentException("no rounds in the IO record");
        }
        return r;
    }

    public String header(String key) {
        String v = header.get(key);
        if (v == null) {
            throw new IllegalArgumentException("the IO record lacks its " + key + " line");
        }
        return v;
    }

    public double median(String backend, Column c) {
        Map<Column, List<Double>> b = rounds.get(backend);
        if (b == null) {
            throw new IllegalArgumentException("no backend " + backend + " in the IO record; it has " + rounds.keySet());
        }
        return Stats.of(b.get(c)).median;
    }

    /** The Netty transport with the better median in this column. */
    public String bestNetty(Column c) {
        String best = null;
        for (String n : NETTY) {
            if (rounds.containsKey(n) && (best == null || (c.higherIsBetter
                    ? median(n, c) > median(best, c) : median(n, c) < median(best, c)))) {
                best = n;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no Netty backend in the IO record");
        }
        return best;
    }

    /**
     * True when the record holds enough windows to compare them ({@link Paired#MIN_PAIRS} of every backend in every
     * column): records written before bench.sh kept windows hold none, a run of one round too few.
     */
    public boolean comparesWindows() {
        if (windows.isEmpty()) {
            return false;
        }
        for (Map<Column, Map<String, Double>> b : windows.values()) {
            for (Map<String, Double> w : b.values()) {
                if (w.size() < Paired.MIN_PAIRS) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@code backend}'s windows against {@code other}'s same windows in column {@code c}. */
    public Paired paired(String backend, String other, Column c) {
        Map<String, Double> mine = windowsOf(backend, c);
        Map<String, Double> theirs = windowsOf(other, c);
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<String, Double> e : mine.entrySet()) {
            Double t = theirs.get(e.getKey());
            if (t != null) {
                ratios.add(Stats.ratio(e.getValue(), t));
            }
        }
        return new Paired(other, ratios, c.higherIsBetter);
    }

    /**
     * {@code backend} window by window against the Netty transport it compares worse with: the worse verdict, and
     * between equal verdicts the worse median. A lead here is a lead over both transports.
     */
    public Paired pairedWithNetty(String backend, Column c) {
        windowsOf(backend, c); // its message, for a record without windows
        Paired worst = null;
        for (String n : NETTY) {
            if (!windows.containsKey(n)) {
                continue;
            }
            Paired p = paired(backend, n, c);
            int worse = p.verdict.compareTo(worst == null ? p.verdict : worst.verdict);
            if (worst == null || worse > 0
                    || (worse == 0 && (c.higherIsBetter ? p.median < worst.median : p.median > worst.median))) {
                worst = p;
            }
        }
        if (worst == null) {
            throw new IllegalArgumentException("no Netty backend with windows in the IO record");
        }
        return worst;
    }

    private Map<String, Double> windowsOf(String backend, Column c) {
        Map<Column, Map<String, Double>> b = windows.get(backend);
        if (b == null || !b.containsKey(c)) {
            throw new IllegalArgumentException("no windows of " + backend + " in column " + c.id + " in the IO record"
                    + (windows.isEmpty() ? " (it was written before bench.sh recorded windows)" : ""));
        }
        return b.get(c);
    }

    /**
     * The value a key names: {@code median}, {@code /best-netty} (the ratio of the medians to the better Netty
     * transport's of the column), {@code /BACKEND}, or, window by window against the Netty transport it compares
     * worse with, {@code /netty-paired} (the median ratio), {@code netty-low} and {@code netty-high} (its
     * interval) and {@code netty-verdict} ({@code ahead}, {@code level} or {@code behind}).
     */
    public String value(String backend, String column, String field) {
        Column c = Column.of(column);
        if (field.equals("median")) {
            return whole(median(backend, c));
        }
        switch (field) {
            case "/netty-paired":
                return Stats.format(pairedWithNetty(backend, c).median);
            case "netty-low":
                return Stats.format(pairedWithNetty(backend, c).low);
            case "netty-high":
                return Stats.format(pairedWithNetty(backend, c).high);
            case "netty-verdict":
                return pairedWithNetty(backend, c).verdict.toString();
            default:
                break;
        }
        if (field.startsWith("/")) {
            String other = field.equals("/best-netty") ? bestNetty(c) : field.substring(1);
            return Stats.format(median(backend, c) / median(other, c));
        }
        throw new IllegalArgumentException("unknown field " + field + "; allowed: median, /best-netty, /BACKEND, "
                + "/netty-paired, netty-low, netty-high, netty-verdict");
    }

    static String whole(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    /** The table the docs show: medians per backend, then each backend's ratios to the best Netty transport. */
    public String table() {
        String f = "forage-io";
        StringBuilder sb = new StringBuilder();
        sb.append("| backend | requests/s at saturation | p50 at ~").append(whole(median(f, Column.MOD_RPS)))
                .append(" req/s (µs) | p99 at ~").append(whole(median(f, Column.MOD_RPS)))
                .append(" req/s (µs) | p99, 1 request in 200 long (µs) | server CPU per request at ~")
                .append(whole(median(f, Column.LOW_RPS))).append(" req/s (µs) |\n");
        sb.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        Column[] shown = {Column.SAT_RPS, Column.MOD_P50_US, Column.MOD_P99_US, Column.MIX_P99_US,
            Column.LOW_CPU_US_PER_REQ};
        for (String b : rounds.keySet()) {
            sb.append("| ").append(b).append(" |");
            for (Column c : shown) {
                sb.append(' ').append(whole(median(b, c))).append(" |");
            }
            sb.append('\n');
        }
        for (String b : rounds.keySet()) {
            if (NETTY.contains(b)) {
                continue;
            }
            sb.append("| ").append(b).append(" / best Netty |");
            for (Column c : shown) {
                String ratio = Stats.format(median(b, c) / median(bestNetty(c), c));
                sb.append(' ').append(b.equals(f) ? "**" + ratio + "**" : ratio).append(" |");
            }
            sb.append('\n');
        }
        int fewest = Integer.MAX_VALUE;
        int most = 0;
        if (comparesWindows()) {
            sb.append("| ").append(f).append(" / Netty, window by window |");
            for (Column c : shown) {
                Paired p = pairedWithNetty(f, c);
                sb.append(' ').append(p).append(", ").append(p.verdict).append(" |");
                fewest = Math.min(fewest, p.n);
                most = Math.max(most, p.n);
            }
            sb.append('\n');
        }
        sb.append("\nBest Netty transport per column (requests/s higher is better, the rest lower): ");
        List<String> best = new ArrayList<>();
        for (Column c : shown) {
            best.add(bestNetty(c));
        }
        sb.append(String.join(", ", best)).append(". Medians of ").append(rounds.values().iterator().next()
                .get(Column.SAT_RPS).size()).append(" rounds, backends alternating.");
        if (comparesWindows()) {
            sb.append(" Window by window: the median of ").append(f).append("'s ratios to the same window of the Netty "
                    + "transport it compares worse with (").append(fewest == most ? fewest + "" : fewest + " to " + most)
                    .append(" windows per column, each run right after or before its pair), with a 95 % interval for "
                    + "that median (sign test); ahead or behind only when the interval excludes 1, else level.");
        }
        sb.append("\n\n");
        sb.append("Command: `").append(header("command")).append("`; ").append(header("date")).append("; JDK ")
                .append(header("jdk")).append("; ").append(header("wrk")).append("; ").append(header("machine"))
                .append(".\n");
        return sb.toString();
    }
}
