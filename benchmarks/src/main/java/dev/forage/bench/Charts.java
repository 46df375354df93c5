package dev.forage.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The results page's charts, drawn with JFreeChart into PNGs (headless): one chart per group of rows (compute,
 * wake-up, low load, IO, Kotlin/Native), each row a horizontal bar of Forage's ratio to the best anchor of the row,
 * one bar per JDK, on a log scale around a line at 1.0. A bar grows from 1.0: to the left where Forage leads,
 * to the right where it trails, and equal distances on either side are equal factors.
 *
 * <p>The charts are drawn from the results files the runners write (docs/results/compare.md, http-io.tsv and the
 * native table on the results page), never from anything edited by hand: the comparison runner and NativeCompare
 * draw theirs when they write their tables, {@code --charts-from DIR} draws them again from saved files.
 */
public final class Charts {
    /** The chart groups, each one PNG; the results page shows them as {@code benchmarks-<file>}. */
    public static final String COMPUTE = "compute.png";
    public static final String WAKEUP = "wakeup.png";
    public static final String LOWLOAD = "lowload.png";
    public static final String IO = "io.png";
    public static final String NATIVE = "native.png";
    /** The prefix of the charts' names beside the results page. */
    public static final String DOCS_PREFIX = "benchmarks-";

    static final int WIDTH = 960;
    /** Height of one bar; a chart is as tall as its bars need, above the title, legend and axis. */
    static final int BAR_HEIGHT = 22;
    static final int FRAME_HEIGHT = 150;
    /**
     * Bars end inside this range of ratios (an idle pool at 0 against an anchor that burns CPU has no bar on a log
     * scale); each bar's label keeps the true ratio.
     */
    static final double FLOOR = 0.01;
    static final double CEILING = 100;

    /** One colour per series (JDK), in the order the runners measure them; Kotlin/Native and IO have one series. */
    private static final Color[] SERIES = {new Color(0x1971C2), new Color(0xD9480F), new Color(0x2F9E44),
        new Color(0x7048E8)};

    private Charts() {
    }

    /** One chart: its rows (bars' categories) and, per row, Forage's ratio per series (JDK). */
    public static final class Group {
        final String file;
        final String title;
        final String note;
        final List<String> series = new ArrayList<>();
        /** Row label to series to ratio; rows in the order of the results table. */
        final Map<String, Map<String, Double>> ratios = new LinkedHashMap<>();
        /** The bars ("row series") whose runs other processes disturbed: labelled with the table's ~. */
        final Set<String> disturbed = new HashSet<>();

        Group(String file, String title, String note) {
            this.file = file;
            this.title = title;
            this.note = note;
        }

        void put(String row, String series, double ratio) {
            put(row, series, ratio, false);
        }

        void put(String row, String series, double ratio, boolean disturbed) {
            if (disturbed) {
                this.disturbed.add(row + " " + series);
            }
            if (!this.series.contains(series)) {
                this.series.add(series);
            }
            ratios.computeIfAbsent(row, r -> new LinkedHashMap<>()).put(series, ratio);
        }

        public String file() {
            return file;
        }

        public List<String> rows() {
            return new ArrayList<>(ratios.keySet());
        }

        public boolean isEmpty() {
            return ratios.isEmpty();
        }
    }

    /**
     * The comparison runner's groups (compute, wake-up, low load with idle) from its results: per row of the
     * record's first profile (the main one), the primary Forage subject's printed ratio on each JDK. A row whose
     * Forage cell has no ratio (a failed or ratio-less cell) has no bar on that JDK; a cell marked ~ (other
     * processes took CPU from its runs) keeps its bar, labelled ~ as in the table.
     */
    public static List<Group> compare(CompareRecord record) {
        Group compute = new Group(COMPUTE, "Compute: Forage's time per operation / the best anchor's",
                "fork-join, coroutines and execute(); lower is better");
        Group wakeup = new Group(WAKEUP, "Wake-up latency: Forage's / the best anchor's",
                "from the submitting call to the job's first instruction; lower is better");
        Group lowload = new Group(LOWLOAD, "Low load and idle: Forage's pool CPU / the best anchor's",
                "CPU of the pool's threads per useful CPU, and an idle pool's CPU; lower is better");
        String main = record.rows().isEmpty() ? null : record.rows().get(0).profile;
        Subject forage = null;
        for (CompareRecord.Row r : record.rows()) {
            for (Subject s : r.cells.keySet()) {
                if (forage == null && s.isForage()) {
                    forage = s;
                }
            }
        }
        for (CompareRecord.Row r : record.rows()) {
            if (!r.profile.equals(main)) {
                continue;
            }
            CompareRecord.Cell c = forage == null ? null : r.cells.get(forage);
            if (c == null || c.ratio == null) {
                continue;
            }
            String row = r.scenario.id() + (r.scenario.metrics().size() > 1 ? " " + r.metric.id() : "");
            String series = r.jdk.isEmpty() ? "this run" : "JDK " + r.jdk;
            Group g;
            switch (r.scenario.group()) {
                case THROUGHPUT:
                    g = compute;
                    break;
                case WAKEUP:
                    g = wakeup;
                    break;
                default:
                    g = lowload;
            }
            g.put(row, series, Double.parseDouble(c.ratio), c.disturbed);
        }
        List<Group> out = new ArrayList<>();
        for (Group g : List.of(compute, wakeup, lowload)) {
            if (!g.isEmpty()) {
                out.add(g);
            }
        }
        return out;
    }

    /**
     * The IO benchmark's group: forage-io's median over the better Netty transport's, per column the docs show, and
     * (a record with enough windows) the median of its window-by-window ratios to the Netty transport it compares worse
     * with. Requests/s is higher-is-better, so its bars are inverse ratios (Netty's over Forage's): every bar reads
     * the same way, left of 1.0 where Forage leads.
     */
    public static Group io(IoRecord io) {
        String jdk = io.header("jdk");
        String feature = jdk.replaceAll("^([0-9]+).*", "$1");
        Group g = new Group(IO, "HTTP service: forage-io / the better Netty transport",
                "requests/s inverted (Netty's / Forage's), so that lower is better in every row");
        Map<IoRecord.Column, String> shown = new LinkedHashMap<>();
        shown.put(IoRecord.Column.SAT_RPS, "requests/s at saturation (inverse)");
        shown.put(IoRecord.Column.MOD_P50_US, "p50 at a moderate rate");
        shown.put(IoRecord.Column.MOD_P99_US, "p99 at a moderate rate");
        shown.put(IoRecord.Column.MIX_P99_US, "p99, 1 request in 200 long");
        shown.put(IoRecord.Column.LOW_CPU_US_PER_REQ, "server CPU per request, low rate");
        for (Map.Entry<IoRecord.Column, String> e : shown.entrySet()) {
            IoRecord.Column c = e.getKey();
            double ratio = io.median("forage-io", c) / io.median(io.bestNetty(c), c);
            g.put(e.getValue(), "JDK " + feature + (io.comparesWindows() ? ", medians of the rounds" : ""),
                    c.higherIsBetter ? 1 / ratio : ratio);
            if (io.comparesWindows()) {
                double paired = io.pairedWithNetty("forage-io", c).median;
                g.put(e.getValue(), "JDK " + feature + ", window by window", c.higherIsBetter ? 1 / paired : paired);
            }
        }
        return g;
    }

    /**
     * The Kotlin/Native group from NativeCompare's table (the results page's native section): per row, the
     * "Forage / best anchor" column.
     */
    public static Group nativeTable(String markdown) {
        Group g = new Group(NATIVE, "Kotlin/Native (linuxX64): Forage / the best anchor",
                "against Dispatchers.Default and newFixedThreadPoolContext; lower is better");
        int ratioColumn = -1;
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("| ") || line.startsWith("| ---")) {
                continue;
            }
            String[] c = CompareRecord.split(line);
            if (c[0].equals("scenario")) {
                ratioColumn = List.of(c).indexOf("Forage / best anchor");
                continue;
            }
            if (ratioColumn < 0 || c.length <= ratioColumn) {
                continue;
            }
            String id = c[0].replaceAll("^`([^`]+)`.*", "$1");
            String metric = c[1].replaceAll(" \\(.*", "");
            String ratio = c[ratioColumn].replaceAll(" \\(.*", "");
            if (ratio.matches("[0-9.]+")) {
                g.put(id + " " + metric, "linuxX64", Double.parseDouble(ratio));
            }
        }
        return g;
    }

    /** The bars as JFreeChart holds them: series (JDKs) by rows, each value clamped into the drawable range. */
    public static DefaultCategoryDataset dataset(Group g) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (Map.Entry<String, Map<String, Double>> row : g.ratios.entrySet()) {
            for (String s : g.series) {
                Double v = row.getValue().get(s);
                d.addValue(v == null ? null : clamp(v), s, row.getKey());
            }
        }
        return d;
    }

    static double clamp(double ratio) {
        return Math.max(FLOOR, Math.min(CEILING, ratio));
    }

    /** The chart's height for its rows and series. */
    public static int height(Group g) {
        return FRAME_HEIGHT + BAR_HEIGHT * g.ratios.size() * Math.max(1, g.series.size()) + 10 * g.ratios.size();
    }

    static JFreeChart chart(Group g) {
        DefaultCategoryDataset data = dataset(g);
        JFreeChart chart = ChartFactory.createBarChart(g.title, null, null, data, PlotOrientation.HORIZONTAL,
                g.series.size() > 1, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        chart.addSubtitle(new TextTitle(g.note + (g.disturbed.isEmpty() ? ""
                : "; ~: other processes took CPU from its runs, as in the table"), new Font(Font.SANS_SERIF,
                Font.PLAIN, 12)));
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xCED4DA));
        plot.setOutlineVisible(false);
        CategoryAxis rows = plot.getDomainAxis();
        rows.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        rows.setCategoryMargin(0.25);
        rows.setMaximumCategoryLabelWidthRatio(0.4f);
        LogAxis ratio = new LogAxis("Forage / reference (log scale): left of 1.0 Forage leads, right of it trails");
        ratio.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        ratio.setSmallestValue(FLOOR);
        ratio.setNumberFormatOverride(new DecimalFormat("0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        double lo = 1;
        double hi = 1;
        for (Map<String, Double> row : g.ratios.values()) {
            for (double v : row.values()) {
                lo = Math.min(lo, clamp(v));
                hi = Math.max(hi, clamp(v));
            }
        }
        double from = Math.max(FLOOR / 1.5, lo / 1.6);
        double to = Math.min(CEILING * 1.5, hi * 1.6);
        ratio.setRange(from, to);
        // Ticks at powers of 2 (0.25, 0.5, 1, 2): factors a reader takes in at a glance; powers of 10 past
        // three decades, where powers of 2 would crowd the axis.
        ratio.setTickUnit(new NumberTickUnit(Math.log10(to / from) > 3 ? 1 : Math.log10(2)), false, true);
        plot.setRangeAxis(ratio);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_RIGHT);
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        bars.setBase(1.0); // bars grow from the line at 1.0, not from the axis's end
        bars.setItemMargin(0.05);
        for (int i = 0; i < g.series.size(); i++) {
            bars.setSeriesPaint(i, SERIES[i % SERIES.length]);
        }
        bars.setDefaultItemLabelGenerator(new TrueRatio(g));
        bars.setDefaultItemLabelsVisible(true);
        bars.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        bars.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3,
                TextAnchor.CENTER_LEFT));
        bars.setDefaultNegativeItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE9,
                TextAnchor.CENTER_RIGHT));
        ValueMarker one = new ValueMarker(1.0, Color.BLACK, new BasicStroke(1.5f));
        plot.addRangeMarker(one);
        return chart;
    }

    /** The label of a bar: the ratio as measured, also where the bar is clamped. */
    private static final class TrueRatio extends StandardCategoryItemLabelGenerator {
        private static final long serialVersionUID = 1L;
        private final transient Group group;

        TrueRatio(Group group) {
            this.group = group;
        }

        @Override
        public String generateLabel(CategoryDataset dataset, int row, int column) {
            String rowKey = (String) dataset.getColumnKey(column);
            String series = (String) dataset.getRowKey(row);
            Double v = group.ratios.get(rowKey).get(series);
            return v == null ? "" : (group.disturbed.contains(rowKey + " " + series) ? "~" : "") + Stats.format(v);
        }
    }

    /** Draws the group into a PNG of {@link #WIDTH} × {@link #height(Group)} pixels. */
    public static void write(Group g, File png) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        BufferedImage img = chart(g).createBufferedImage(WIDTH, height(g));
        if (!ImageIO.write(img, "png", png)) {
            throw new IOException("no PNG writer for " + png);
        }
    }

    /**
     * Draws every chart whose results file is in {@code docsDir} (the docs folder: results/compare.md,
     * results/http-io.tsv, and the native table between its markers in benchmarks.md) beside them, named
     * {@code benchmarks-<group>.png}; {@code only} limits it to compare, io and native (empty: all). Returns the
     * files written.
     */
    public static List<File> fromDocs(File docsDir, List<String> only, PrintStream out) throws IOException {
        List<Group> groups = new ArrayList<>();
        File compare = new File(docsDir, Compare.RESULTS_FILE);
        if (wanted(only, "compare") && compare.isFile()) {
            groups.addAll(compare(CompareRecord.parse(read(compare))));
        }
        File io = new File(docsDir, "results/http-io.tsv");
        if (wanted(only, "io") && io.isFile()) {
            groups.add(io(IoRecord.parse(read(io))));
        }
        File page = new File(docsDir, "benchmarks.md");
        if (wanted(only, "native") && page.isFile()) {
            String text = read(page);
            int b = text.indexOf(NativeCompare.RESULTS_BEGIN);
            int e = text.indexOf(NativeCompare.RESULTS_END);
            if (b >= 0 && e > b) {
                Group n = nativeTable(text.substring(b, e));
                if (!n.isEmpty()) {
                    groups.add(n);
                }
            }
        }
        List<File> written = new ArrayList<>();
        for (Group g : groups) {
            File png = new File(docsDir, DOCS_PREFIX + g.file);
            write(g, png);
            written.add(png);
            out.println("written: " + png);
        }
        return written;
    }

    private static boolean wanted(List<String> only, String kind) {
        return only.isEmpty() || only.contains(kind);
    }

    private static String read(File f) throws IOException {
        return Files.readString(f.toPath(), StandardCharsets.UTF_8);
    }
}
