package dev.forage.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;

/**
 * The two charts of the results page, drawn with java.awt into PNGs (headless; no plotting tool needed): the
 * wake-up latency distribution per subject, and CPU per useful CPU at low load per subject.
 */
public final class Charts {
    private static final Color[] PALETTE = {
        new Color(0xD9480F), // Forage: orange
        new Color(0x1971C2), new Color(0x2F9E44), new Color(0x7048E8), new Color(0x868E96),
        new Color(0xE64980), new Color(0x0C8599), new Color(0xF08C00), new Color(0x5C940D), new Color(0x343A40),
    };
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 17);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

    private Charts() {
    }

    /** A stable colour per subject: its position in {@link Subjects#ALL} (the palette has one for each). */
    static Color color(Subject s) {
        int i = Subjects.ALL.indexOf(s);
        return PALETTE[Math.floorMod(i, PALETTE.length)];
    }

    /**
     * Percentile distribution of the wake-up latency (merged over forks), one panel per wake-up scenario, one
     * line per subject. X: percentile on the usual HdrHistogram scale (0 %, 90 %, 99 %, 99.9 %); Y: µs, log
     * scale. Returns false if there is nothing to draw.
     */
    public static boolean wakeup(RunData data, List<Scenario> scenarios, List<Subject> subjects, File file)
            throws IOException {
        List<Scenario> panels = new ArrayList<>();
        for (Scenario sc : scenarios) {
            if (sc.group() == Scenario.Group.WAKEUP) {
                for (Subject s : subjects) {
                    if (data.histogram(sc.id(), s.id(), "latency") != null && !panels.contains(sc)) {
                        panels.add(sc);
                    }
                }
            }
        }
        if (panels.isEmpty()) {
            return false;
        }
        int panelW = 620;
        int h = 620;
        BufferedImage img = new BufferedImage(panelW * panels.size(), h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = start(img);
        for (int p = 0; p < panels.size(); p++) {
            Scenario sc = panels.get(p);
            int x0 = p * panelW;
            List<Subject> drawn = new ArrayList<>();
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            for (Subject s : subjects) {
                Histogram hist = data.histogram(sc.id(), s.id(), "latency");
                if (hist != null && hist.getTotalCount() > 0) {
                    drawn.add(s);
                    lo = Math.min(lo, Math.max(hist.getMinValue() / 1e3, 0.1));
                    hi = Math.max(hi, hist.getValueAtPercentile(99.9) / 1e3);
                }
            }
            g.setColor(Color.BLACK);
            g.setFont(TITLE);
            g.drawString(sc.title() + " (µs)", x0 + 70, 30);
            if (drawn.isEmpty()) {
                continue;
            }
            double yLo = Math.pow(10, Math.floor(Math.log10(lo)));
            double yHi = Math.pow(10, Math.ceil(Math.log10(hi)));
            int left = x0 + 70;
            int right = x0 + panelW - 25;
            int top = 50;
            int bottom = h - 150;
            // Axes and grid.
            g.setFont(SMALL);
            for (double v = yLo; v <= yHi * 1.0001; v *= 10) {
                int y = yLog(v, yLo, yHi, top, bottom);
                grid(g, left, y, right, y);
                label(g, v >= 1 ? Long.toString(Math.round(v)) : Stats.format(v), left - 8, y + 4, true);
            }
            String[] pct = {"0%", "90%", "99%", "99.9%"};
            for (int d = 0; d <= 3; d++) {
                int x = left + (right - left) * d / 3;
                grid(g, x, top, x, bottom);
                label(g, pct[d], x - 12, bottom + 18, false);
            }
            g.setColor(Color.DARK_GRAY);
            g.drawRect(left, top, right - left, bottom - top);
            g.setFont(LABEL);
            g.drawString("percentile", (left + right) / 2 - 30, bottom + 38);
            // Lines.
            int legendY = bottom + 62;
            int legendX = left;
            for (Subject s : drawn) {
                Histogram hist = data.histogram(sc.id(), s.id(), "latency");
                Path2D path = new Path2D.Double();
                for (int i = 0; i <= 300; i++) {
                    double x = 3.0 * i / 300;
                    double q = 100 * (1 - Math.pow(10, -x));
                    double v = Math.max(hist.getValueAtPercentile(q) / 1e3, yLo);
                    double px = left + (right - left) * x / 3;
                    double py = yLogD(Math.min(v, yHi), yLo, yHi, top, bottom);
                    if (i == 0) {
                        path.moveTo(px, py);
                    } else {
                        path.lineTo(px, py);
                    }
                }
                g.setColor(color(s));
                g.setStroke(new BasicStroke(s.isForage() ? 3f : 2f));
                g.draw(path);
                g.setStroke(new BasicStroke(1f));
                String name = s.label() + "  p50 " + Stats.format(hist.getValueAtPercentile(50) / 1e3)
                        + "  p99 " + Stats.format(hist.getValueAtPercentile(99) / 1e3);
                FontMetrics fm = g.getFontMetrics(SMALL);
                int wName = fm.stringWidth(name) + 40;
                if (legendX + wName > right) {
                    legendX = left;
                    legendY += 18;
                }
                g.fillRect(legendX, legendY - 9, 18, 4);
                g.setColor(Color.BLACK);
                g.setFont(SMALL);
                g.drawString(name, legendX + 24, legendY - 3);
                legendX += wName;
            }
        }
        g.dispose();
        return ImageIO.write(img, "png", file);
    }

    /**
     * Grouped bars: for each low-load scenario, each subject's median CPU per useful CPU, with a min–max
     * whisker and a dashed line at 1.0 (only the tasks' own CPU). Returns false if there is nothing to draw.
     */
    public static boolean lowLoad(RunData data, List<Scenario> scenarios, List<Subject> subjects, File file)
            throws IOException {
        List<Scenario> groups = new ArrayList<>();
        for (Scenario sc : scenarios) {
            if (sc.group() == Scenario.Group.LOW_LOAD) {
                groups.add(sc);
            }
        }
        List<Subject> shown = new ArrayList<>();
        double max = 1.0;
        for (Subject s : subjects) {
            for (Scenario sc : groups) {
                Stats st = data.stats(sc.id(), s.id(), "cpu");
                if (st != null) {
                    if (!shown.contains(s)) {
                        shown.add(s);
                    }
                    max = Math.max(max, st.max);
                }
            }
        }
        if (shown.isEmpty()) {
            return false;
        }
        int w = 1200;
        int h = 560;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = start(img);
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString("CPU of the pool's threads per useful CPU at low load (1.0 = only the tasks; lower is better)",
                70, 30);
        int left = 70;
        int right = w - 25;
        int top = 50;
        int bottom = h - 120;
        double yMax = niceCeiling(max * 1.1);
        g.setFont(SMALL);
        double step = niceStep(yMax / 6);
        for (double v = 0; v <= yMax + 1e-9; v += step) {
            int y = yLin(v, yMax, top, bottom);
            grid(g, left, y, right, y);
            label(g, tick(v, step), left - 8, y + 4, true);
        }
        g.setColor(Color.DARK_GRAY);
        g.drawRect(left, top, right - left, bottom - top);
        int groupW = (right - left) / groups.size();
        int barW = Math.max(8, (groupW - 40) / shown.size());
        for (int gi = 0; gi < groups.size(); gi++) {
            Scenario sc = groups.get(gi);
            int gx = left + gi * groupW + (groupW - barW * shown.size()) / 2;
            for (int si = 0; si < shown.size(); si++) {
                Stats st = data.stats(sc.id(), shown.get(si).id(), "cpu");
                if (st == null) {
                    continue;
                }
                int x = gx + si * barW;
                int y = yLin(st.median, yMax, top, bottom);
                g.setColor(color(shown.get(si)));
                g.fillRect(x + 2, y, barW - 4, bottom - y);
                g.setColor(Color.BLACK);
                int cx = x + barW / 2;
                int yMin = yLin(st.min, yMax, top, bottom);
                int yMaxPx = yLin(st.max, yMax, top, bottom);
                g.drawLine(cx, yMin, cx, yMaxPx);
                g.drawLine(cx - 4, yMin, cx + 4, yMin);
                g.drawLine(cx - 4, yMaxPx, cx + 4, yMaxPx);
                g.setFont(SMALL);
                String v = Stats.format(st.median);
                int tw = g.getFontMetrics().stringWidth(v);
                g.drawString(v, cx - tw / 2, Math.min(yMaxPx, y) - 5);
            }
            g.setColor(Color.BLACK);
            g.setFont(LABEL);
            String t = sc.title().replace("low load: ", "");
            int tw = g.getFontMetrics().stringWidth(t);
            g.drawString(t, left + gi * groupW + (groupW - tw) / 2, bottom + 22);
        }
        // The ideal.
        int y1 = yLin(1.0, yMax, top, bottom);
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 5f}, 0f));
        g.drawLine(left, y1, right, y1);
        g.setStroke(new BasicStroke(1f));
        // Legend.
        int lx = left;
        int ly = bottom + 60;
        g.setFont(LABEL);
        for (Subject s : shown) {
            g.setColor(color(s));
            g.fillRect(lx, ly - 11, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(s.label(), lx + 20, ly);
            lx += g.getFontMetrics().stringWidth(s.label()) + 50;
        }
        g.setFont(SMALL);
        g.drawString("bars: median; whiskers: min–max over windows and forks; dashed: 1.0", left, ly + 28);
        g.dispose();
        return ImageIO.write(img, "png", file);
    }

    private static Graphics2D start(BufferedImage img) {
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        return g;
    }

    private static void grid(Graphics2D g, int x1, int y1, int x2, int y2) {
        g.setColor(new Color(0xE9ECEF));
        g.drawLine(x1, y1, x2, y2);
    }

    private static void label(Graphics2D g, String text, int x, int y, boolean alignRight) {
        g.setColor(Color.DARK_GRAY);
        int tw = g.getFontMetrics().stringWidth(text);
        g.drawString(text, alignRight ? x - tw : x, y);
    }

    private static int yLog(double v, double lo, double hi, int top, int bottom) {
        return (int) Math.round(yLogD(v, lo, hi, top, bottom));
    }

    private static double yLogD(double v, double lo, double hi, int top, int bottom) {
        double f = (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
        return bottom - f * (bottom - top);
    }

    private static int yLin(double v, double max, int top, int bottom) {
        return (int) Math.round(bottom - v / max * (bottom - top));
    }

    /** A tick label with as many decimals as the step needs: 0, 2, 4 or 0.5, 1.0, 1.5. */
    static String tick(double v, double step) {
        int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f", v);
    }

    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / p;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    }

    static double niceCeiling(double v) {
        double step = niceStep(v / 6);
        return Math.ceil(v / step) * step;
    }
}
