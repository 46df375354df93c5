package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The IO record's window-by-window comparison: its interval, its verdicts, and the Netty transport it picks. */
class IoRecordTest {
    private static final String HEAD = String.join("\n",
            "jdk\t17.0.15 2025-04-15",
            "columns\tround backend sat_rps mod_p50_us mod_p99_us mod_rps low_cpu_us_per_req low_rps mix_p99_us",
            "1\tforage-io\t100\t100\t100\t1800\t100\t190\t100",
            "1\tnetty-epoll\t100\t100\t100\t1800\t100\t190\t100",
            "1\tnetty-nio\t100\t100\t100\t1800\t100\t190\t100");

    /** Window lines for one backend and column, the values given in order over rounds of 5 windows. */
    private static String windows(String backend, String column, double... values) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            lines.add("window\t" + (1 + i / 5) + "\t" + backend + "\t" + column + "\t" + (i % 5) + "\t" + values[i]);
        }
        return String.join("\n", lines);
    }

    private static double[] times(double factor, double... values) {
        double[] out = values.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] *= factor;
        }
        return out;
    }

    private static final double[] BASE = {80, 95, 70, 110, 90, 100, 85, 75, 120, 105, 60, 88, 92, 101, 97};

    @Test
    void theSignTestRankIsTheLargestWhoseTailsStayWithinTwoAndAHalfPercentEach() {
        assertEquals(0, IoRecord.Paired.signTestRank(5), "1/32 > 2.5 %: five values bound nothing");
        assertEquals(1, IoRecord.Paired.signTestRank(6), "1/64");
        assertEquals(4, IoRecord.Paired.signTestRank(15), "P(B <= 3) = 1.76 %, P(B <= 4) = 5.9 %");
        assertEquals(6, IoRecord.Paired.signTestRank(20), "P(B <= 5) = 2.07 %, P(B <= 6) = 5.8 %");
        assertEquals(10, IoRecord.Paired.signTestRank(30), "P(B <= 9) = 2.14 %, P(B <= 10) = 4.9 %");
    }

    @Test
    void aBackendFasterInEveryWindowIsAheadAndOneThatAlternatesIsLevel() {
        double[] alternating = BASE.clone();
        for (int i = 0; i < alternating.length; i++) {
            alternating[i] *= i % 2 == 0 ? 0.9 : 1.1;
        }
        IoRecord r = IoRecord.parse(String.join("\n", HEAD,
                windows("netty-epoll", "low_cpu_us_per_req", BASE),
                windows("netty-nio", "low_cpu_us_per_req", BASE),
                windows("forage-io", "low_cpu_us_per_req", times(0.9, BASE)),
                windows("netty-epoll", "mod_p50_us", BASE),
                windows("netty-nio", "mod_p50_us", BASE),
                windows("forage-io", "mod_p50_us", alternating),
                windows("netty-epoll", "sat_rps", BASE),
                windows("netty-nio", "sat_rps", BASE),
                windows("forage-io", "sat_rps", times(0.95, BASE))));
        assertTrue(r.comparesWindows());
        IoRecord.Paired cpu = r.pairedWithNetty("forage-io", IoRecord.Column.LOW_CPU_US_PER_REQ);
        assertEquals(15, cpu.n);
        assertEquals(0.9, cpu.median, 1e-9);
        assertEquals(IoRecord.Paired.Verdict.AHEAD, cpu.verdict, "lower CPU in every window: the interval is below 1");
        assertEquals("level", r.value("forage-io", "mod_p50_us", "netty-verdict"),
                "0.9 and 1.1 by turns: the interval holds 1");
        assertEquals("1.10", r.value("forage-io", "mod_p50_us", "netty-high"));
        assertEquals("behind", r.value("forage-io", "sat_rps", "netty-verdict"),
                "fewer requests/s in every burst is behind, though the ratio is below 1");
    }

    @Test
    void theComparisonIsAgainstTheNettyTransportItComparesWorseWith() {
        IoRecord r = IoRecord.parse(String.join("\n", HEAD,
                windows("netty-epoll", "mix_p99_us", BASE),
                windows("netty-nio", "mix_p99_us", times(0.8, BASE)),
                windows("forage-io", "mix_p99_us", times(0.85, BASE))));
        IoRecord.Paired p = r.pairedWithNetty("forage-io", IoRecord.Column.MIX_P99_US);
        assertEquals("netty-nio", p.against, "ahead of epoll, behind nio: the verdict is nio's");
        assertEquals(IoRecord.Paired.Verdict.BEHIND, p.verdict);
        assertEquals(0.85 / 0.8, p.median, 1e-9);
        assertEquals(IoRecord.Paired.Verdict.AHEAD, r.paired("forage-io", "netty-epoll", IoRecord.Column.MIX_P99_US).verdict);
    }

    @Test
    void onlyWindowsRunInBothBackendsArePaired() {
        IoRecord r = IoRecord.parse(String.join("\n", HEAD,
                windows("netty-epoll", "mod_p99_us", 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
                windows("forage-io", "mod_p99_us", 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 7, 7, 7, 7, 7)));
        IoRecord.Paired p = r.paired("forage-io", "netty-epoll", IoRecord.Column.MOD_P99_US);
        assertEquals(10, p.n, "the third round's windows have no pair");
        assertEquals(2.0, p.median, 1e-9);
    }

    /** One round gives 5 windows a column, too few for an interval: the table leaves the window row out. */
    @Test
    void aRecordOfOneRoundHasItsTableWithoutTheWindowRow() {
        String[] columns = {"sat_rps", "mod_p50_us", "mod_p99_us", "mix_p99_us", "low_cpu_us_per_req"};
        StringBuilder tsv = new StringBuilder(String.join("\n", HEAD, "command\tbench.sh 1", "date\td",
                "wrk\tw", "machine\tm"));
        for (String c : columns) {
            for (String b : List.of("forage-io", "netty-epoll", "netty-nio")) {
                tsv.append('\n').append(windows(b, c, 1, 2, 3, 4, 5));
            }
        }
        IoRecord r = IoRecord.parse(tsv.toString());
        assertFalse(r.comparesWindows());
        String table = r.table();
        assertTrue(table.contains("forage-io / best Netty"), table);
        assertFalse(table.contains("window by window"), table);
    }

    @Test
    void badWindowRecordsAreRefusedWithWhatWasWrong() {
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class, () -> IoRecord.parse(
                String.join("\n", HEAD, windows("netty-epoll", "sat_rps", 1, 2, 3, 4, 5),
                        windows("netty-nio", "sat_rps", 1, 2, 3, 4, 5), windows("forage-io", "sat_rps", 1, 2, 3, 4, 5)))
                .pairedWithNetty("forage-io", IoRecord.Column.SAT_RPS));
        assertTrue(few.getMessage().contains("6 or more pairs"), few.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> IoRecord.parse(
                String.join("\n", HEAD, "window\t1\tforage-io\tsat_rps\t0\t5", "window\t1\tforage-io\tsat_rps\t0\t6")));
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> IoRecord.parse(HEAD).value("forage-io", "sat_rps", "/netty-paired"));
        assertTrue(none.getMessage().contains("before bench.sh recorded windows"), none.getMessage());
        assertFalse(IoRecord.parse(HEAD).comparesWindows());
    }
}
