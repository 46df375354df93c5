package dev.forage.bench;

import dev.forage.bench.scenario.Scenarios;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The results tables of the comparison runner's record (docs/results/compare.md, written by {@code --write-docs}),
 * read back cell by cell, as printed: the numbers the docs quote are these strings. A run on several JDKs writes
 * one table per JDK, each under its heading ({@code **JDK 25**}); a quote names the JDK after its profile
 * ({@code full@25}), and a profile without one reads the record's first table (JDK 17 in a two-JDK run, the only
 * table in a run on one JDK).
 */
public final class CompareRecord {
    /**
     * One printed cell: the median, the spread across forks, the ratio to the row's best anchor, and whether other
     * processes disturbed its runs (~): such a cell is in its {@link Row} but cannot be quoted.
     */
    public static final class Cell {
        public final String median;
        public final String min;
        public final String max;
        public final String ratio;
        public final boolean disturbed;

        Cell(String median, String min, String max, String ratio, boolean disturbed) {
            this.median = median;
            this.min = min;
            this.max = max;
            this.ratio = ratio;
            this.disturbed = disturbed;
        }
    }

    /** {@code **2.25** (2.13–2.81) ×0.850}, the disturbance mark ~, the bold and the ratio optional. */
    private static final Pattern CELL = Pattern.compile(
            "(~)?\\**([0-9.]+)\\** \\(([0-9.]+)–([0-9.]+)\\)(?: ×([0-9.]+))?");

    private static final Pattern JDK_HEADING = Pattern.compile("^\\*\\*JDK ([0-9]+)\\*\\*$");

    /**
     * One row of a results table, in the order printed: its JDK ("" in a run on one JDK), scenario, profile ("" in
     * a run of one profile) and metric, and the cells that hold a number, by subject: a failed cell or – holds
     * none, one marked ~ holds its number, which no quote reads.
     */
    public static final class Row {
        public final String jdk;
        public final Scenario scenario;
        public final String profile;
        public final Metric metric;
        public final Map<Subject, Cell> cells;

        Row(String jdk, Scenario scenario, String profile, Metric metric, Map<Subject, Cell> cells) {
            this.jdk = jdk;
            this.scenario = scenario;
            this.profile = profile;
            this.metric = metric;
            this.cells = cells;
        }
    }

    private final Map<String, Cell> cells = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private final String header;
    /** The JDK of the first table ("" when it has no heading): what a quote without @JDK reads. */
    private String firstJdk;

    private CompareRecord(String header) {
        this.header = header;
    }

    private static String key(String scenario, String profile, String metric, String subject) {
        return scenario + ' ' + profile + ' ' + metric + ' ' + subject;
    }

    /** A quote's profile with its JDK: {@code full@25}, or {@code full} for the first table's. */
    private String qualified(String profile) {
        return profile.contains("@") || firstJdk.isEmpty() ? profile : profile + "@" + firstJdk;
    }

    public static CompareRecord parse(String markdown) {
        String[] lines = markdown.split("\n");
        List<Subject> columns = null;
        StringBuilder header = new StringBuilder();
        CompareRecord record = null;
        String jdk = "";
        int first = 3; // the first subject's column
        for (String line : lines) {
            Matcher heading = JDK_HEADING.matcher(line.trim());
            if (heading.matches()) {
                jdk = heading.group(1);
                continue;
            }
            if (line.startsWith("Command: ") || line.startsWith("Date: ") || line.startsWith("Machine: ")) {
                header.append(line.trim()).append('\n');
            }
            if (line.startsWith("| scenario | profile | metric |") || line.startsWith("| scenario | metric |")) {
                // A run of one profile prints no profile column: its rows read as profile "".
                first = line.startsWith("| scenario | profile |") ? 3 : 2;
                columns = new java.util.ArrayList<>();
                String[] h = split(line);
                for (int i = first; i < h.length; i++) {
                    columns.add(subjectByLabel(h[i]));
                }
                if (record == null) {
                    record = new CompareRecord(header.toString());
                    record.firstJdk = jdk;
                }
                continue;
            }
            if (columns == null || !line.startsWith("| ") || line.startsWith("| ---")) {
                if (columns != null && !line.startsWith("|")) {
                    columns = null; // the table ends; another JDK's may follow, then the goals table
                }
                continue;
            }
            String[] c = split(line);
            Scenario sc = scenarioByTitle(c[0]);
            String profile = first == 3 ? c[1] : "";
            Metric m = metricByLabel(sc, c[first - 1]);
            Map<Subject, Cell> row = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                Matcher x = CELL.matcher(c[first + i]);
                if (x.matches()) {
                    Cell cell = new Cell(x.group(2), x.group(3), x.group(4), x.group(5), x.group(1) != null);
                    if (!cell.disturbed) {
                        // A marked cell's numbers are partly other processes': no quote may read it.
                        record.cells.put(key(sc.id(), jdk.isEmpty() ? profile : profile + "@" + jdk, m.id(),
                                columns.get(i).id()), cell);
                    }
                    row.put(columns.get(i), cell);
                }
            }
            record.rows.add(new Row(jdk, sc, profile, m, row));
        }
        if (record == null || record.rows.isEmpty()) {
            throw new IllegalArgumentException("no results table (| scenario | profile | metric | ...) in the record");
        }
        return record;
    }

    /** Every row of every table, in the order printed (JDK by JDK). */
    public List<Row> rows() {
        return rows;
    }

    /** The record's Command, Date and Machine lines. */
    public String header() {
        return header;
    }

    public Cell cell(String scenario, String profile, String metric, String subject) {
        Cell c = cells.get(key(scenario, qualified(profile), metric, subject));
        if (c == null) {
            throw new IllegalArgumentException("the record has no cell for " + key(scenario, profile, metric, subject)
                    + " (scenario and subject ids as in `--list`, profile full or short, with @JDK for another JDK's "
                    + "table than the first (full@25), metric ids as in the scenario classes: time, cpu, p50, p99)");
        }
        return c;
    }

    /**
     * The value a key names. {@code field}: median, min, max, ratio (to the row's best anchor, as printed), or
     * {@code /SUBJECT}: the ratio of the two printed medians.
     */
    public String value(String scenario, String profile, String metric, String subject, String field) {
        Cell c = cell(scenario, profile, metric, subject);
        switch (field) {
            case "median":
                return c.median;
            case "min":
                return c.min;
            case "max":
                return c.max;
            case "ratio":
                if (c.ratio == null) {
                    throw new IllegalArgumentException("no ratio printed for " + key(scenario, profile, metric, subject));
                }
                return c.ratio;
            default:
                if (field.startsWith("/")) {
                    Cell other = cell(scenario, profile, metric, field.substring(1));
                    return Stats.format(Double.parseDouble(c.median) / Double.parseDouble(other.median));
                }
                throw new IllegalArgumentException("unknown field " + field + "; allowed: median, min, max, ratio, /SUBJECT");
        }
    }

    public static String[] split(String row) {
        String inner = row.trim();
        inner = inner.substring(1, inner.length() - 1);
        String[] parts = inner.split("\\|");
        for (int i = 0; i < parts.length; i++) {
            parts[i] = parts[i].trim();
        }
        return parts;
    }

    private static Subject subjectByLabel(String label) {
        for (Subject s : Subjects.ALL) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown subject column " + label);
    }

    private static Scenario scenarioByTitle(String title) {
        for (Scenario s : Scenarios.ALL) {
            if (s.title().equals(title)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario row " + title);
    }

    private static Metric metricByLabel(Scenario sc, String labelAndUnit) {
        for (Metric m : sc.metrics()) {
            if ((m.label() + ", " + m.unit()).equals(labelAndUnit)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric " + labelAndUnit + " of " + sc.id());
    }
}
