package dev.forage.bench.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * README.md's "Why switch" offers only leads, and its "Where Forage trails" only what is not one: every ratio
 * quoted in the first (a link whose key ends in {@code ratio} or {@code /SUBJECT}) must be better than 1 in the
 * latest results, every ratio quoted in the second must not be. A window-by-window ratio ({@code /netty-paired})
 * is a lead only when its verdict is {@code ahead} (its interval excludes 1). A new run that turns a lead into a tie fails this
 * test until the row moves, and so does one that turns a trailing row into a lead.
 */
class WhySwitchTest {
    static final String LEADS = "## Why switch";
    static final String TRAILS = "### Where Forage trails";

    /** A quoted ratio: its key, the value the records give, and whether it is a lead. */
    record Quote(String key, double value, boolean lead) {}

    @Test
    void theReadmeQuotesLeadsAsReasonsAndEverythingElseAsTrailing() throws IOException {
        String readme = Files.readString(DocNumbersTest.root().resolve("README.md"));
        DocNumbers numbers = DocNumbersTest.numbers(DocNumbersTest.root());
        List<Quote> leads = ratios(section(readme, LEADS, TRAILS), numbers::value);
        List<Quote> trails = ratios(section(readme, TRAILS, "\n## "), numbers::value);
        assertTrue(leads.size() >= 5, "\"Why switch\" quotes " + leads.size() + " ratios: did the link syntax change?");
        assertTrue(trails.size() >= 5, "\"Where Forage trails\" quotes " + trails.size() + " ratios");
        assertEquals(List.of(), problems(leads, trails));
    }

    /** The check itself, on a page made up here: a tie among the reasons and a lead among the trailing rows. */
    @Test
    void aTieOfferedAsAReasonAndALeadListedAsTrailingAreEachReported() {
        Map<String, String> values = Map.of(
                "compare: a full time forage-jec ratio", "0.80",
                "compare: b full time forage-jec ratio", "1.04",
                "io: forage-io sat_rps /best-netty", "1.10",
                "compare: c full time forage-jec median", "3.00",
                "io: forage-io mod_p50_us /best-netty", "1.38");
        String page = "# x\n" + LEADS + "\n"
                + "[×0.80](p \"compare: a full time forage-jec ratio\") [×1.04](p \"compare: b full time forage-jec ratio\")"
                + " [1.10](p \"io: forage-io sat_rps /best-netty\") [3.00](p \"compare: c full time forage-jec median\")\n"
                + TRAILS + "\n[1.38](p \"io: forage-io mod_p50_us /best-netty\")"
                + " [×0.80](p \"compare: a full time forage-jec ratio\")\n## Next\n";
        List<Quote> leads = ratios(section(page, LEADS, TRAILS), values::get);
        List<Quote> trails = ratios(section(page, TRAILS, "\n## "), values::get);
        assertEquals(3, leads.size(), "a median is not a ratio: " + leads);
        List<String> problems = problems(leads, trails);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("compare: b full") && problems.get(0).contains("not a lead"), problems.get(0));
        assertTrue(problems.get(1).contains("compare: a full") && problems.get(1).contains("is a lead"), problems.get(1));
    }

    /** A window-by-window ratio below 1 whose interval includes 1 is level, not a reason to switch. */
    @Test
    void aWindowByWindowRatioLeadsOnlyWhenItsVerdictIsAhead() {
        Map<String, String> values = Map.of(
                "io: forage-io mod_p50_us /netty-paired", "0.95",
                "io: forage-io mod_p50_us netty-verdict", "level",
                "io: forage-io mix_p99_us /netty-paired", "0.80",
                "io: forage-io mix_p99_us netty-verdict", "ahead");
        String page = "# x\n" + LEADS + "\n[0.95](p \"io: forage-io mod_p50_us /netty-paired\")"
                + " [0.80](p \"io: forage-io mix_p99_us /netty-paired\")\n" + TRAILS + "\n## Next\n";
        List<Quote> leads = ratios(section(page, LEADS, TRAILS), values::get);
        List<String> problems = problems(leads, List.of());
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("mod_p50_us") && problems.get(0).contains("not a lead"), problems.get(0));
    }

    static List<String> problems(List<Quote> leads, List<Quote> trails) {
        List<String> problems = new ArrayList<>();
        for (Quote q : leads) {
            if (!q.lead()) {
                problems.add("\"Why switch\" offers " + q.key() + " = " + q.value()
                        + ", which is not a lead: move it to \"Where Forage trails\"");
            }
        }
        for (Quote q : trails) {
            if (q.lead()) {
                problems.add("\"Where Forage trails\" lists " + q.key() + " = " + q.value()
                        + ", which is a lead now: move it to \"Why switch\" or drop it");
            }
        }
        return problems;
    }

    static String section(String page, String from, String to) {
        int i = page.indexOf(from);
        if (i < 0) {
            throw new AssertionError("no \"" + from + "\" in the page");
        }
        int j = page.indexOf(to, i + from.length());
        return page.substring(i, j < 0 ? page.length() : j);
    }

    static List<Quote> ratios(String text, Function<String, String> values) {
        List<Quote> quotes = new ArrayList<>();
        Matcher m = DocNumbers.LINK.matcher(text);
        while (m.find()) {
            String key = m.group(3);
            String[] parts = key.split("\\s+");
            String field = parts[parts.length - 1];
            if (!field.equals("ratio") && !field.startsWith("/")) {
                continue;   // a plain value (a median): no direction of its own
            }
            double v = Double.parseDouble(values.apply(key).replace(",", ""));
            if (field.equals("/netty-paired")) { // a window-by-window ratio leads only when its interval excludes 1
                String verdict = values.apply(key.replace("/netty-paired", "netty-verdict"));
                quotes.add(new Quote(key, v, verdict.equals("ahead")));
                continue;
            }
            quotes.add(new Quote(key, v, higherIsBetter(key) ? v > 1 : v < 1));
        }
        return quotes;
    }

    /** Throughputs (requests/s, calls/s) lead above 1; times, latencies and CPU lead below it. */
    static boolean higherIsBetter(String key) {
        return key.contains(" sat_rps ") || key.contains(" calls ");
    }
}
