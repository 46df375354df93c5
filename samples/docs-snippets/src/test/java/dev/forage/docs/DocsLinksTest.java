package dev.forage.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every relative link of README.md and docs/ leads to a page and heading that exist, and says where it leads. */
class DocsLinksTest {

    @Test
    void everyLinkOfTheDocsLeadsWhereItSays() throws IOException {
        Path root = Pages.root();
        List<String> problems = new ArrayList<>();
        for (String page : Pages.all(root)) {
            String markdown = new String(Files.readAllBytes(root.resolve(page)), StandardCharsets.UTF_8);
            problems.addAll(Links.problems(page, markdown, root));
        }
        assertEquals(new ArrayList<String>(), problems);
    }

    @Test
    void docsReadmeListsEveryReferencePage() throws IOException {
        Path root = Pages.root();
        String index = new String(Files.readAllBytes(root.resolve("docs/README.md")), StandardCharsets.UTF_8);
        List<String> missing = new ArrayList<>();
        for (String page : Pages.all(root)) {
            if (!page.startsWith("docs/") || page.equals("docs/README.md")) continue;
            String name = page.substring("docs/".length());
            String entry = name.startsWith("results/") ? "results/" : name;   // the results are listed as a folder
            if (!index.contains("](" + entry + ")")) missing.add(name);
        }
        assertEquals(new ArrayList<String>(), missing, "pages docs/README.md does not list");
    }

    @Test
    void theCheckerFindsEachKindOfWrongLink(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.write(root.resolve("docs/a.md"), "# A\n\n## Run-time `parallelism`\n\n## Run-time parallelism\n\n<a id=\"kept\"></a>\nText.\n".getBytes(StandardCharsets.UTF_8));
        Files.write(root.resolve("docs/b.md"), "# B\n".getBytes(StandardCharsets.UTF_8));
        String good = "[a.md](a.md), [the page](a.md#run-time-parallelism), [again](a.md#run-time-parallelism-1),"
                + " [tag](a.md#kept), [here](#b), [web](https://example.com/x.md), `[code](gone.md)`\n\n```text\n[block](gone.md)\n```\n";
        assertEquals(List.of(), Links.problems("docs/b.md", good, root));
        assertTrue(Links.problems("docs/b.md", "see [c.md](c.md)\n", root).get(0).contains("leads nowhere"));
        assertTrue(Links.problems("docs/b.md", "see [a](a.md#nothing)\n", root).get(0).contains("leads to no heading"));
        assertTrue(Links.problems("docs/b.md", "see [b.md](a.md)\n", root).get(0).contains("says b.md but leads to docs/a.md"));
        assertEquals(3, Links.problems("docs/b.md", "[x](c.md) [y](#z)\n\n[a.md](b.md)\n", root).size());
    }
}
