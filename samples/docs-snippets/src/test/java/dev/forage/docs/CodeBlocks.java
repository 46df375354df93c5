package dev.forage.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks of a Markdown page and the rule they keep: code a reader may copy is code the build
 * compiles. An HTML comment (invisible when rendered) on the line before a block says where the block comes from:
 * <ul>
 *   <li>{@code <!-- snippet: PATH -->}: the block is that whole file (all whitespace runs folded to one space);</li>
 *   <li>{@code <!-- snippet-in: PATH -->}: the block's lines appear in that file, one after another (indentation,
 *       blank lines and the width of spaces inside a line aside);</li>
 *   <li>{@code <!-- excerpt -->} or {@code <!-- excerpt: why -->}: the block is not compiled here (a Gradle build
 *       script, a fragment that names the reader's own types).</li>
 * </ul>
 * PATH is relative to the repository's root. A {@code java} or {@code kotlin} block's file must be a source file
 * of that language in a source folder ({@code src/SET/java}, {@code src/SET/kotlin}, ...) of a module of the
 * build, so the build compiles it; an {@code xml} block's file must exist. Every {@code java}, {@code kotlin} and
 * {@code xml} block carries one of the three markers, and every block says its language ({@code sh},
 * {@code text}, ...), so that no code hides in an unlabelled block.
 */
final class CodeBlocks {

    /** Languages whose blocks must be compiled code or marked as excerpts. */
    static final Set<String> CODE = new LinkedHashSet<>(Arrays.asList("java", "kotlin", "kt", "xml"));

    private static final Pattern MARKER =
            Pattern.compile("<!--\\s*(snippet|snippet-in|excerpt)(?::\\s*(.*?))?\\s*-->");
    private static final Pattern SOURCE_FOLDER = Pattern.compile("src/[^/]+/(java|java11|kotlin|baselines)/.+");

    enum Kind { SNIPPET, SNIPPET_IN, EXCERPT }

    static final class Block {
        final int line;            // of the opening fence, from 1
        final String language;     // "" when the fence names none
        final Kind kind;           // null when unmarked
        final String path;         // the marker's PATH (snippet, snippet-in), else null
        final String text;         // without the fence's indentation

        Block(int line, String language, Kind kind, String path, String text) {
            this.line = line;
            this.language = language;
            this.kind = kind;
            this.path = path;
            this.text = text;
        }
    }

    private CodeBlocks() {
    }

    /** The page's fenced blocks, each with the marker on the line before it (blank lines between allowed). */
    static List<Block> parse(String markdown) {
        List<String> lines = Arrays.asList(markdown.split("\n", -1));
        List<Block> blocks = new ArrayList<>();
        Kind kind = null;
        String path = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String trimmed = line.trim();
            Matcher m = MARKER.matcher(trimmed);
            if (m.matches()) {
                kind = m.group(1).equals("snippet") ? Kind.SNIPPET
                        : m.group(1).equals("snippet-in") ? Kind.SNIPPET_IN : Kind.EXCERPT;
                path = kind == Kind.EXCERPT ? null : m.group(2);
            } else if (trimmed.startsWith("```")) {
                int indent = line.indexOf('`');
                String language = trimmed.substring(3).trim();
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).trim().equals("```")) end++;
                if (end == lines.size()) {
                    throw new IllegalArgumentException("unclosed code block at line " + (i + 1));
                }
                StringBuilder text = new StringBuilder();
                for (String inner : lines.subList(i + 1, end)) {
                    int cut = 0;
                    while (cut < indent && cut < inner.length() && inner.charAt(cut) == ' ') cut++;
                    text.append(inner.substring(cut)).append('\n');
                }
                blocks.add(new Block(i + 1, language, kind, path, text.toString()));
                kind = null;
                path = null;
                i = end;
            } else if (!trimmed.isEmpty()) {
                kind = null;     // a marker applies to the very next block only
                path = null;
            }
        }
        return blocks;
    }

    /**
     * What is wrong with the page's blocks, one line each; empty when nothing is. {@code modules} are the
     * build's module folders relative to {@code root} ("dispatcher-jvm", "samples/docs-snippets", ...).
     */
    static List<String> problems(String page, String markdown, Path root, Set<String> modules) throws IOException {
        List<String> problems = new ArrayList<>();
        List<Block> blocks;
        try {
            blocks = parse(markdown);
        } catch (IllegalArgumentException e) {
            problems.add(page + ": " + e.getMessage());
            return problems;
        }
        for (Block b : blocks) {
            String where = page + " line " + b.line + ": ";
            if (b.language.isEmpty()) {
                problems.add(where + "a block without a language: say what it is (```text, ```sh, ```java, ...)");
                continue;
            }
            boolean code = CODE.contains(b.language);
            if (b.kind == null) {
                if (code) {
                    problems.add(where + "a " + b.language + " block that nothing compiles: mark it <!-- snippet: PATH -->"
                            + " or <!-- snippet-in: PATH --> (a file the build compiles), or <!-- excerpt -->");
                }
                continue;
            }
            if (b.kind == Kind.EXCERPT) continue;
            if (b.path == null || b.path.isEmpty()) {
                problems.add(where + "the marker names no file");
                continue;
            }
            String source = sourceProblem(b, modules);
            if (source != null) {
                problems.add(where + source);
                continue;
            }
            Path file = root.resolve(b.path);
            if (!Files.isRegularFile(file)) {
                problems.add(where + "names a missing file: " + b.path);
                continue;
            }
            String content = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            if (b.kind == Kind.SNIPPET && !folded(content).equals(folded(b.text))) {
                problems.add(where + "the block differs from " + b.path + " (whitespace aside): change both together");
            } else if (b.kind == Kind.SNIPPET_IN && !containsRun(lines(content), lines(b.text))) {
                problems.add(where + "these lines are not in " + b.path + " (indentation aside):\n" + b.text);
            }
        }
        return problems;
    }

    /** Why the block's file is not one the build compiles for its language, or null when it is. */
    private static String sourceProblem(Block b, Set<String> modules) {
        String wanted = b.language.equals("java") ? ".java"
                : b.language.equals("kotlin") || b.language.equals("kt") ? ".kt" : null;
        if (wanted == null) return null;
        if (!b.path.endsWith(wanted)) {
            return "a " + b.language + " block must come from a " + wanted + " file, not " + b.path;
        }
        for (String module : modules) {
            String prefix = module.isEmpty() ? "" : module + "/";
            if (b.path.startsWith(prefix) && SOURCE_FOLDER.matcher(b.path.substring(prefix.length())).matches()) {
                return null;
            }
        }
        return b.path + " is not in a source folder of a module of the build, so nothing compiles it";
    }

    /** The module folders of the build: the root and every {@code <module>} below it, recursively. */
    static Set<String> modules(Path root) throws IOException {
        Set<String> modules = new LinkedHashSet<>();
        collectModules(root, root, modules);
        return modules;
    }

    private static void collectModules(Path root, Path dir, Set<String> modules) throws IOException {
        Path pom = dir.resolve("pom.xml");
        if (!Files.isRegularFile(pom)) return;
        String relative = root.relativize(dir).toString().replace('\\', '/');
        if (!modules.add(relative)) return;
        String xml = new String(Files.readAllBytes(pom), StandardCharsets.UTF_8).replaceAll("(?s)<!--.*?-->", "");
        Matcher m = Pattern.compile("<module>\\s*([^<]+?)\\s*</module>").matcher(xml);
        while (m.find()) {
            collectModules(root, dir.resolve(m.group(1)).normalize(), modules);
        }
    }

    static String folded(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }

    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.trim().isEmpty()) lines.add(line.trim().replaceAll("\\s+", " "));
        }
        return lines;
    }

    private static boolean containsRun(List<String> file, List<String> run) {
        if (run.isEmpty()) return false;
        for (int i = 0; i + run.size() <= file.size(); i++) {
            if (file.subList(i, i + run.size()).equals(run)) return true;
        }
        return false;
    }
}
