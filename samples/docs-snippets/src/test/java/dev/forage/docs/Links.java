package dev.forage.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relative links of a Markdown page, and what makes one wrong: a target that does not exist, an anchor that no
 * heading of the target makes (GitHub's rule: lower case, punctuation dropped, spaces to hyphens), or a text that
 * names a file other than the one it leads to ({@code [benchmarks.md](comparison-runner.md)}). Links inside code
 * (fenced blocks, inline code) are left alone; web links are not followed.
 */
final class Links {

    private static final Pattern HTML_ANCHOR = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");
    private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");
    /** A link text that is a file or folder name: it must name the link's target. */
    private static final Pattern FILE_TEXT = Pattern.compile("[\\w./-]+(\\.md|\\.png|/)(#[\\w-]*)?");

    private Links() {
    }

    static List<String> problems(String page, String markdown, Path root) throws IOException {
        List<String> problems = new ArrayList<>();
        String[] lines = prose(markdown).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = LINK.matcher(lines[i]);
            while (m.find()) {
                String text = m.group(1).replace("`", "").trim();
                String target = m.group(2);
                if (target.matches("[a-z]+:.*")) continue;     // https:, mailto:
                String problem = problem(page, text, target, root);
                if (problem != null) problems.add(page + " line " + (i + 1) + ": [" + m.group(1) + "](" + target + ") " + problem);
            }
        }
        return problems;
    }

    private static String problem(String page, String text, String target, Path root) throws IOException {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path pageDir = root.resolve(page).getParent();
        Path resolved = file.isEmpty() ? root.resolve(page) : pageDir.resolve(file).normalize();
        if (!resolved.startsWith(root) || !Files.exists(resolved)) return "leads nowhere: " + file + " does not exist";
        if (anchor != null) {
            if (!Files.isRegularFile(resolved) || !resolved.toString().endsWith(".md")) return "has an anchor on a non-page";
            String markdown = new String(Files.readAllBytes(resolved), StandardCharsets.UTF_8);
            if (!anchors(markdown).contains(anchor)) return "leads to no heading: #" + anchor + " is not in " + root.relativize(resolved);
        }
        if (FILE_TEXT.matcher(text).matches()) {
            String named = text.replaceFirst("#.*", "");
            String led = root.relativize(resolved).toString().replace('\\', '/') + (Files.isDirectory(resolved) ? "/" : "");
            String from = file.isEmpty() ? page : led;
            if (!(from.equals(named) || from.endsWith("/" + named))) return "says " + named + " but leads to " + from;
        }
        return null;
    }

    /**
     * The anchors of a page: those GitHub makes for its headings (a repeated heading gets -1, -2, ...) and those
     * of its {@code <a id="...">} tags.
     */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : withoutBlocks(markdown).split("\n")) {
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) anchors.add(html.group(1));
            if (!line.matches("#{1,6} .*")) continue;
            String slug = line.replaceFirst("^#+ ", "").trim().toLowerCase()
                    .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** The page with inline code removed and fenced blocks blanked (their lines kept, so line numbers hold). */
    static String prose(String markdown) {
        StringBuilder out = new StringBuilder();
        for (String line : withoutBlocks(markdown).split("\n", -1)) {
            out.append(line.replaceAll("``[^`]*``|`[^`]*`", "``")).append('\n');
        }
        return out.toString();
    }

    private static String withoutBlocks(String markdown) {
        StringBuilder out = new StringBuilder();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                out.append('\n');
            } else if (fenced) {
                out.append('\n');
            } else {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }
}
