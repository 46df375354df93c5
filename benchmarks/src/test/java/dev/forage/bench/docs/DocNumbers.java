package dev.forage.bench.docs;

import dev.forage.bench.CompareRecord;
import dev.forage.bench.IoRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a page quotes a measured number so that a stale quote fails the build. Two forms:
 *
 * <ul>
 *   <li>a link whose title names the number in a results file:
 *       {@code [×0.850](docs/benchmarks.md "compare: fib-join full time forage-jec ratio")}; the link text must
 *       contain the value the key names. Keys: {@code compare: SCENARIO PROFILE METRIC SUBJECT FIELD} (PROFILE:
 *       full or short, {@code full@25} for the JDK 25 table of a run on two JDKs; FIELD: median, min, max, ratio,
 *       /SUBJECT), {@code io: BACKEND COLUMN FIELD} (FIELD: median, /best-netty, /BACKEND, and window by window
 *       against Netty /netty-paired, netty-low, netty-high, netty-verdict), {@code blocking: CALL SUBJECT COLUMN
 *       FIELD} (FIELD: median, /SUBJECT);</li>
 *   <li>a generated block, {@code <!-- results:NAME:begin -->} ... {@code <!-- results:NAME:end -->}, whose
 *       content is rendered from a results file ({@code io}: the IO table).</li>
 * </ul>
 *
 * And a ratio written as {@code ×1.23} anywhere else on a checked page (outside the runner's own
 * {@code <!-- compare:...:begin -->} blocks) is an error: it could go stale unseen.
 */
final class DocNumbers {
    static final Pattern LINK = Pattern.compile(
            "\\[([^\\]]+)\\]\\(([^)\\s]+) \"((?:compare|io|blocking): [^\"]+)\"\\)");
    static final Pattern BLOCK = Pattern.compile(
            "<!-- results:([a-z-]+):begin -->\n(.*?)<!-- results:\\1:end -->", Pattern.DOTALL);
    /** The runner's own blocks (docs/benchmarks.md): written from the record in the same run, so consistent. */
    private static final Pattern RUNNER_BLOCK = Pattern.compile(
            "<!-- compare:([a-z-]+):begin -->\n.*?<!-- compare:\\1:end -->", Pattern.DOTALL);
    /** A ratio as the docs write one, {@code ×0.85}; "8 × 1000" or a target's "1.0 ×" is not one. */
    private static final Pattern LOOSE_RATIO = Pattern.compile("×[0-9]");

    private final CompareRecord compare;
    private final IoRecord io;
    private final BlockingRecord blocking;

    DocNumbers(CompareRecord compare, IoRecord io, BlockingRecord blocking) {
        this.compare = compare;
        this.io = io;
        this.blocking = blocking;
    }

    /** The value a link's key names; IllegalArgumentException for a key the records cannot answer. */
    String value(String key) {
        String[] k = key.substring(key.indexOf(':') + 1).trim().split("\\s+");
        String kind = key.substring(0, key.indexOf(':'));
        switch (kind) {
            case "compare":
                need(key, k, 5);
                return compare.value(k[0], k[1], k[2], k[3], k[4]);
            case "io":
                need(key, k, 3);
                return io.value(k[0], k[1], k[2]);
            case "blocking":
                need(key, k, 4);
                return blocking.value(k[0], k[1], k[2], k[3]);
            default:
                throw new IllegalArgumentException("unknown results file in " + key);
        }
    }

    private static void need(String key, String[] parts, int n) {
        if (parts.length != n) {
            throw new IllegalArgumentException("\"" + key + "\" has " + parts.length + " words after the colon; "
                    + n + " expected (see DocNumbers' javadoc)");
        }
    }

    /** The rendered content of a generated block. */
    String block(String name) {
        if (name.equals("io")) {
            return io.table();
        }
        throw new IllegalArgumentException("unknown generated block " + name + "; known: io");
    }

    /** What is wrong with a page's quoted numbers: one line per stale quote, bad key, stale block or loose ratio. */
    List<String> problems(String page, String text) {
        List<String> problems = new ArrayList<>();
        Matcher b = BLOCK.matcher(text);
        while (b.find()) {
            String want = blockOrProblem(b.group(1), problems, page);
            if (want != null && !want.equals(b.group(2))) {
                problems.add(page + ": generated block " + b.group(1) + " differs from its results file "
                        + "(rerun with -Dforage.docs.update=true)");
            }
        }
        String outsideBlocks = RUNNER_BLOCK.matcher(BLOCK.matcher(text).replaceAll("")).replaceAll("");
        Matcher m = LINK.matcher(outsideBlocks);
        while (m.find()) {
            String expected;
            try {
                expected = value(m.group(3));
            } catch (IllegalArgumentException e) {
                problems.add(page + ": " + m.group(0) + ": " + e.getMessage());
                continue;
            }
            if (!Pattern.compile("(?<![0-9.,])" + Pattern.quote(expected) + "(?![0-9])").matcher(m.group(1)).find()) {
                problems.add(page + ": \"" + m.group(1) + "\" quotes " + m.group(3) + ", which is " + expected
                        + " in the results file");
            }
        }
        String rest = LINK.matcher(outsideBlocks).replaceAll("");
        Matcher loose = LOOSE_RATIO.matcher(rest);
        while (loose.find()) {
            int from = Math.max(0, loose.start() - 40);
            int to = Math.min(rest.length(), loose.end() + 20);
            problems.add(page + ": a ratio that no results file checks: \"…"
                    + rest.substring(from, to).replace('\n', ' ') + "…\" (quote it as a checked link)");
        }
        return problems;
    }

    private String blockOrProblem(String name, List<String> problems, String page) {
        try {
            return block(name);
        } catch (IllegalArgumentException e) {
            problems.add(page + ": " + e.getMessage());
            return null;
        }
    }

    /** The page with every generated block rendered afresh. */
    String update(String text) {
        Matcher b = BLOCK.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (b.find()) {
            String name = b.group(1);
            b.appendReplacement(sb, Matcher.quoteReplacement(
                    "<!-- results:" + name + ":begin -->\n" + block(name) + "<!-- results:" + name + ":end -->"));
        }
        b.appendTail(sb);
        return sb.toString();
    }

    /** Reads and parses a record; a missing file fails with the record's name. */
    static <T> T read(String what, java.nio.file.Path p, Function<String, T> parse) {
        try {
            return parse.apply(java.nio.file.Files.readString(p));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read the " + what + " record " + p + ": " + e, e);
        }
    }
}
