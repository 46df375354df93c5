package dev.forage.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The pages the docs tests read: README.md and every Markdown page under docs/, as paths from the root. */
final class Pages {
    private Pages() {
    }

    /** The clone's root: the first folder upwards that holds README.md and docs/. */
    static Path root() {
        for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md")) && Files.isDirectory(d.resolve("docs"))) return d;
        }
        throw new IllegalStateException("no repository root above " + Paths.get("").toAbsolutePath());
    }

    static List<String> all(Path root) throws IOException {
        List<String> pages = new ArrayList<>();
        pages.add("README.md");
        try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
            pages.addAll(files.filter(f -> f.toString().endsWith(".md"))
                    .map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .sorted()
                    .collect(Collectors.toList()));
        }
        return pages;
    }
}
