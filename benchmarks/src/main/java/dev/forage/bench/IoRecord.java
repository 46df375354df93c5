package dev.forage.bench;

import java.util.ArrayList;
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

    public static IoRecord parse(String tsv) {
        IoRecord r = new IoRecord();
        List<String> columns = null;
        for (String line : tsv.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
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
     * The value a key names: {@code median}, {@code /best-netty} (the ratio to the better Netty transport of the
     * column) or {@code /BACKEND}.
     */
    public String value(String backend, String column, String field) {
        Column c = Column.of(column);
        if (field.equals("median")) {
            return whole(median(backend, c));
        }
        if (field.startsWith("/")) {
            String other = field.equals("/best-netty") ? bestNetty(c) : field.substring(1);
            return Stats.format(median(backend, c) / median(other, c));
        }
        throw new IllegalArgumentException("unknown field " + field + "; allowed: median, /best-netty, /BACKEND");
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
        sb.append("\nBest Netty transport per column (requests/s higher is better, the rest lower): ");
        List<String> best = new ArrayList<>();
        for (Column c : shown) {
            best.add(bestNetty(c));
        }
        sb.append(String.join(", ", best)).append(". Medians of ").append(rounds.values().iterator().next()
                .get(Column.SAT_RPS).size()).append(" rounds, backends alternating.\n\n");
        sb.append("Command: `").append(header("command")).append("`; ").append(header("date")).append("; JDK ")
                .append(header("jdk")).append("; ").append(header("wrk")).append("; ").append(header("machine"))
                .append(".\n");
        return sb.toString();
    }
}
