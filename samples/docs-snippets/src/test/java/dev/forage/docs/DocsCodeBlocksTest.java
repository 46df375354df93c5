package dev.forage.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every code block of README.md and docs/ is code the build compiles, or says it is an excerpt ({@link CodeBlocks}
 * has the markers). A page of docs/ that opens with code (a Java or Kotlin block before its first "## " section)
 * opens with a whole program that {@link GuideExamplesTest} runs.
 */
class DocsCodeBlocksTest {

    /** The programs GuideExamplesTest runs: the only files a guide may open with. */
    static final Set<String> OPENING_EXAMPLES = Set.of(
            "samples/docs-snippets/src/main/java/JavaGuide.java",
            "samples/docs-snippets/src/main/kotlin/CoroutinesGuide.kt");

    @Test
    void everyCodeBlockIsCompiledCodeOrMarkedAnExcerpt() throws IOException {
        Path root = Pages.root();
        Set<String> modules = CodeBlocks.modules(root);
        assertTrue(modules.contains("samples/docs-snippets") && modules.contains("dispatcher-jvm"),
                "the build's modules were not found: " + modules);
        List<String> problems = new ArrayList<>();
        int compiled = 0;
        for (String page : Pages.all(root)) {
            String markdown = new String(Files.readAllBytes(root.resolve(page)), StandardCharsets.UTF_8);
            problems.addAll(CodeBlocks.problems(page, markdown, root, modules));
            for (CodeBlocks.Block b : CodeBlocks.parse(markdown)) {
                if (b.kind == CodeBlocks.Kind.SNIPPET || b.kind == CodeBlocks.Kind.SNIPPET_IN) compiled++;
            }
        }
        assertEquals(new ArrayList<String>(), problems, "code blocks that no build compiles or checks");
        assertTrue(compiled >= 30, "the pages' checked blocks were found (" + compiled + ")");
    }

    @Test
    void aGuideThatOpensWithCodeOpensWithAProgramTheBuildRuns() throws IOException {
        Path root = Pages.root();
        List<String> wrong = new ArrayList<>();
        int guides = 0;
        for (String page : Pages.all(root)) {
            if (!page.startsWith("docs/")) continue;
            String markdown = new String(Files.readAllBytes(root.resolve(page)), StandardCharsets.UTF_8);
            int firstSection = firstSectionLine(markdown);
            for (CodeBlocks.Block b : CodeBlocks.parse(markdown)) {
                if (b.line > firstSection) break;
                if (!b.language.equals("java") && !b.language.equals("kotlin")) continue;
                guides++;
                if (b.kind != CodeBlocks.Kind.SNIPPET || !OPENING_EXAMPLES.contains(b.path)) {
                    wrong.add(page + " line " + b.line + ": opens with code that is not one of " + OPENING_EXAMPLES);
                }
                break;
            }
        }
        assertEquals(new ArrayList<String>(), wrong);
        assertTrue(guides >= 2, "java.md and coroutines.md open with their programs (" + guides + " found)");
    }

    /** The line of the page's first "## " heading (past the end when it has none). */
    private static int firstSectionLine(String markdown) {
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("## ")) return i + 1;
        }
        return lines.length + 1;
    }
}
