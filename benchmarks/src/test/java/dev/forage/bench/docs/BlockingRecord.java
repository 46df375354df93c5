package dev.forage.bench.docs;

import dev.forage.bench.CompareRecord;
import dev.forage.bench.Stats;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The blocking benchmark's record (docs/results/blocking.md): the medians table {@code BlockingMix} prints, one
 * row per (blocking call, subject). Calls are {@code sleep} and {@code read}; subjects {@code forage} and
 * {@code kotlinx}.
 */
final class BlockingRecord {
    static final List<String> COLUMNS = List.of("calls", "threads", "switches", "hopsIn", "hopsBack");

    private final Map<String, String[]> rows = new HashMap<>();

    static BlockingRecord parse(String markdown) {
        BlockingRecord r = new BlockingRecord();
        boolean inTable = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("| blocking call | subject |")) {
                inTable = true;
                continue;
            }
            if (!inTable || line.startsWith("| ---")) {
                continue;
            }
            if (!line.startsWith("|")) {
                break;
            }
            String[] c = CompareRecord.split(line);
            String call = c[0].startsWith("Thread.sleep") ? "sleep" : c[0].contains("read") ? "read" : null;
            String subject = c[1].startsWith("Forage") ? "forage" : c[1].startsWith("Default") ? "kotlinx" : null;
            if (call == null || subject == null || c.length != 2 + COLUMNS.size()) {
                throw new IllegalArgumentException("unexpected row of the blocking record: " + line);
            }
            r.rows.put(call + ' ' + subject, java.util.Arrays.copyOfRange(c, 2, c.length));
        }
        if (r.rows.isEmpty()) {
            throw new IllegalArgumentException("no table (| blocking call | subject | ...) in the blocking record");
        }
        return r;
    }

    private String printed(String call, String subject, String column) {
        String[] row = rows.get(call + ' ' + subject);
        int i = COLUMNS.indexOf(column);
        if (row == null || i < 0) {
            throw new IllegalArgumentException("no " + call + " " + subject + " " + column + " in the blocking record;"
                    + " calls: sleep, read; subjects: forage, kotlinx; columns: " + COLUMNS);
        }
        return row[i];
    }

    /** {@code median}: the printed value; {@code /kotlinx}: Forage's over kotlinx's. */
    String value(String call, String subject, String column, String field) {
        if (field.equals("median")) {
            return printed(call, subject, column);
        }
        if (field.startsWith("/")) {
            double a = Double.parseDouble(printed(call, subject, column).replace(",", ""));
            double b = Double.parseDouble(printed(call, field.substring(1), column).replace(",", ""));
            return Stats.format(a / b);
        }
        throw new IllegalArgumentException("unknown field " + field + "; allowed: median, /SUBJECT");
    }
}
