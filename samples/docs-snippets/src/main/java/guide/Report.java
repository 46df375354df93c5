package guide;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** The reader's own type in the guides' examples: what a job computes from what it read. */
public final class Report {
    private final List<String> rows;

    private Report(List<String> rows) {
        this.rows = rows;
    }

    public static Report parse(byte[] raw) {
        return of(Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\n")));
    }

    public static Report of(List<String> rows) {
        return new Report(rows);
    }

    public int rows() {
        return rows.size();
    }
}
