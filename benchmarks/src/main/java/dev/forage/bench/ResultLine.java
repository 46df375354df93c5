package dev.forage.bench;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * One line of the protocol between a measuring JVM ({@link Child}) and the runner ({@link Compare}), on the
 * child's stdout:
 * <pre>
 * @@forage-bench RESULT scenario=fib-join subject=forkjoin threads=2 key=time values=1.41,1.39,1.52
 * @@forage-bench HIST scenario=wakeup-outside subject=forkjoin threads=2 key=latency value=HISTFAAA...
 * @@forage-bench INFO scenario=lowload-1ms subject=forkjoin threads=2 key=taskMicros value=20.1
 * </pre>
 * Anything else on stdout is ignored, so a scenario's own printing cannot corrupt the results. Values are
 * URL-encoded (no spaces); histograms are HdrHistogram's compressed encoding in Base64.
 */
public final class ResultLine {
    static final String PREFIX = "@@forage-bench ";

    public enum Type { RESULT, HIST, INFO }

    public final Type type;
    public final String scenario;
    public final String subject;
    public final int threads;
    public final String key;
    /** The samples of a RESULT line; empty otherwise. */
    public final List<Double> values;
    /** The payload of a HIST or INFO line; null for RESULT. */
    public final String value;

    private ResultLine(Type type, String scenario, String subject, int threads, String key, List<Double> values,
            String value) {
        this.type = type;
        this.scenario = scenario;
        this.subject = subject;
        this.threads = threads;
        this.key = key;
        this.values = values;
        this.value = value;
    }

    public static ResultLine result(String scenario, String subject, int threads, String metric,
            List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a RESULT line needs at least one value (" + scenario + "/" + metric + ")");
        }
        return new ResultLine(Type.RESULT, scenario, subject, threads, metric, List.copyOf(values), null);
    }

    public static ResultLine histogram(String scenario, String subject, int threads, String name, Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[n];
        buf.flip();
        buf.get(bytes);
        return new ResultLine(Type.HIST, scenario, subject, threads, name, List.of(),
                Base64.getEncoder().encodeToString(bytes));
    }

    public static ResultLine info(String scenario, String subject, int threads, String key, String value) {
        return new ResultLine(Type.INFO, scenario, subject, threads, key, List.of(), value);
    }

    /** The decoded histogram of a HIST line. */
    public Histogram decodeHistogram() {
        if (type != Type.HIST) {
            throw new IllegalStateException("not a HIST line: " + type);
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(value)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("corrupt histogram for " + scenario + "/" + subject, e);
        }
    }

    public String format() {
        StringBuilder sb = new StringBuilder(PREFIX).append(type)
                .append(" scenario=").append(enc(scenario))
                .append(" subject=").append(enc(subject))
                .append(" threads=").append(threads)
                .append(" key=").append(enc(key));
        if (type == Type.RESULT) {
            sb.append(" values=");
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(values.get(i));
            }
        } else {
            sb.append(" value=").append(enc(value));
        }
        return sb.toString();
    }

    /**
     * Parses a line; returns null for lines that are not protocol lines.
     *
     * @throws IllegalArgumentException for a protocol line that is malformed
     */
    public static ResultLine parse(String line) {
        if (!line.startsWith(PREFIX)) {
            return null;
        }
        String[] parts = line.substring(PREFIX.length()).trim().split(" ");
        Type type;
        try {
            type = Type.valueOf(parts[0]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown result line type '" + parts[0] + "' in: " + line);
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("field without '=' ('" + parts[i] + "') in: " + line);
            }
            fields.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        String scenario = dec(required(fields, "scenario", line));
        String subject = dec(required(fields, "subject", line));
        String key = dec(required(fields, "key", line));
        int threads;
        try {
            threads = Integer.parseInt(required(fields, "threads", line));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("threads is not an integer in: " + line);
        }
        if (type == Type.RESULT) {
            List<Double> values = new ArrayList<>();
            for (String v : required(fields, "values", line).split(",")) {
                try {
                    values.add(Double.parseDouble(v));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("value '" + v + "' is not a number in: " + line);
                }
            }
            return new ResultLine(type, scenario, subject, threads, key, List.copyOf(values), null);
        }
        return new ResultLine(type, scenario, subject, threads, key, List.of(), dec(required(fields, "value", line)));
    }

    private static String required(Map<String, String> fields, String name, String line) {
        String v = fields.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing field '" + name + "' in: " + line);
        }
        return v;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return format();
    }
}
