package dev.forage.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker of {@link DocsCodeBlocksTest} on synthetic pages and a synthetic build: it passes what it should,
 * and each way a block can drift from the build's code is a failure.
 */
class CodeBlocksTest {

    private static final String SOURCE = "class Hello {\n    static String greet(String who) {\n        return \"hello \" + who;\n    }\n}\n";

    @TempDir
    Path root;

    private Set<String> modules;

    @BeforeEach
    void aBuildWithOneModule() throws IOException {
        write("pom.xml", "<project><modules><!-- <module>gone</module> --><module>app</module></modules></project>");
        write("app/pom.xml", "<project/>");
        write("app/src/main/java/Hello.java", SOURCE);
        write("app/src/test/kotlin/Hi.kt", "fun hi() = \"hi\"\n");
        write("loose/src/main/java/Loose.java", SOURCE);   // no module of the build names "loose"
        write("app/README.txt", SOURCE);
        modules = CodeBlocks.modules(root);
    }

    @Test
    void theBuildsModulesAreTheRootAndWhatItsPomsName() {
        assertEquals(Set.of("", "app"), modules);
    }

    @Test
    void blocksThatAreTheirSourceOrMarkedExcerptsPass() throws IOException {
        String page = "# Page\n\n<!-- snippet: app/src/main/java/Hello.java -->\n```java\n" + SOURCE + "```\n\n"
                + "Part of it:\n\n<!-- snippet-in: app/src/main/java/Hello.java -->\n```java\n"
                + "static String greet(String who) {\n    return \"hello \" + who;\n```\n\n"
                + "  <!-- snippet-in: app/src/test/kotlin/Hi.kt -->\n  ```kotlin\n  fun hi() = \"hi\"\n  ```\n\n"
                + "<!-- excerpt: a Gradle script -->\n```kotlin\nplugins { java }\n```\n\n"
                + "```sh\nmvn verify\n```\n";
        assertEquals(List.of(), problems(page));
        assertEquals(5, CodeBlocks.parse(page).size());
    }

    @Test
    void anUnmarkedJavaOrKotlinBlockFails() throws IOException {
        List<String> java = problems("Text\n\n```java\n" + SOURCE + "```\n");
        assertEquals(1, java.size(), java.toString());
        assertTrue(java.get(0).startsWith("page.md line 3: a java block that nothing compiles"), java.get(0));
        assertEquals(1, problems("```kotlin\nfun main() = println(undefined)\n```\n").size());
        assertEquals(1, problems("```xml\n<dependency/>\n```\n").size());
    }

    @Test
    void aMarkerAppliesToTheNextBlockOnly() throws IOException {
        String page = "<!-- excerpt -->\nA paragraph between the marker and the block.\n\n```java\nint x = 1;\n```\n";
        assertEquals(1, problems(page).size());
    }

    @Test
    void aWholeFileBlockEditedAwayFromItsSourceFails() throws IOException {
        String edited = SOURCE.replace("\"hello \"", "\"hi \"");
        List<String> found = problems("<!-- snippet: app/src/main/java/Hello.java -->\n```java\n" + edited + "```\n");
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("differs from app/src/main/java/Hello.java"), found.get(0));
        // A part of the file is not the whole file either.
        assertEquals(1, problems("<!-- snippet: app/src/main/java/Hello.java -->\n```java\nclass Hello {\n```\n").size());
    }

    @Test
    void aPartialBlockWhoseLinesAreNotInItsSourceFails() throws IOException {
        String page = "<!-- snippet-in: app/src/main/java/Hello.java -->\n```java\n"
                + "static String greet(String who) {\n    return \"hello \" + whom;\n```\n";
        List<String> found = problems(page);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("not in app/src/main/java/Hello.java"), found.get(0));
        // Lines of the file, but not one after another.
        assertEquals(1, problems("<!-- snippet-in: app/src/main/java/Hello.java -->\n```java\nclass Hello {\n}\n```\n").size());
    }

    @Test
    void aBlockWhoseFileTheBuildDoesNotCompileFails() throws IOException {
        assertEquals(1, problems("<!-- snippet: loose/src/main/java/Loose.java -->\n```java\n" + SOURCE + "```\n").size());
        assertEquals(1, problems("<!-- snippet: app/README.txt -->\n```java\n" + SOURCE + "```\n").size());
        assertEquals(1, problems("<!-- snippet-in: app/src/main/java/Hello.java -->\n```kotlin\nclass Hello {\n```\n").size());
        assertEquals(1, problems("<!-- snippet: app/src/main/java/Gone.java -->\n```java\n" + SOURCE + "```\n").size());
    }

    @Test
    void aBlockWithoutALanguageOrWithoutAnEndFails() throws IOException {
        assertEquals(1, problems("```\nint x = 1;\n```\n").size());
        assertEquals(1, problems("```java\nint x = 1;\n").size());
    }

    private List<String> problems(String markdown) throws IOException {
        return CodeBlocks.problems("page.md", markdown, root, modules);
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
    }
}
