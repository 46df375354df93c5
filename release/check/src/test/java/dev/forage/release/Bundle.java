package dev.forage.release;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A Central Portal bundle read into memory: every file by its path in the zip
 * ({@code dev/forage/<artifactId>/<version>/<file>}), and the components those paths name.
 */
final class Bundle {
    /** The extensions of the files that sign or check another file, not published files themselves. */
    static final List<String> SIDECARS = List.of(".asc", ".md5", ".sha1", ".sha256", ".sha512");

    final String groupPath;
    final Map<String, byte[]> files;

    private Bundle(String groupPath, Map<String, byte[]> files) {
        this.groupPath = groupPath;
        this.files = Collections.unmodifiableMap(files);
    }

    static Bundle read(Path zip, String groupId) {
        if (!Files.isRegularFile(zip)) {
            throw new IllegalArgumentException("no bundle at " + zip + " (run release/stage-bundle.sh first)");
        }
        Map<String, byte[]> files = new TreeMap<>();
        try (ZipFile zf = new ZipFile(zip.toFile())) {
            for (ZipEntry e : Collections.list(zf.entries())) {
                if (e.isDirectory()) continue;
                files.put(e.getName(), zf.getInputStream(e).readAllBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundle " + zip, e);
        }
        return new Bundle(groupId.replace('.', '/'), files);
    }

    /** The artifactIds that have a directory in the bundle. */
    List<String> artifactIds() {
        List<String> ids = new ArrayList<>();
        for (String path : files.keySet()) {
            String[] parts = relative(path);
            if (parts != null && !ids.contains(parts[0])) ids.add(parts[0]);
        }
        return ids;
    }

    /** The published files (no signatures or checksums) of one component, by file name. */
    List<String> publishedFiles(String artifactId, String version) {
        List<String> names = new ArrayList<>();
        String dir = dir(artifactId, version);
        for (String path : files.keySet()) {
            if (path.startsWith(dir) && SIDECARS.stream().noneMatch(path::endsWith)) {
                names.add(path.substring(dir.length()));
            }
        }
        return names;
    }

    String dir(String artifactId, String version) {
        return groupPath + "/" + artifactId + "/" + version + "/";
    }

    byte[] file(String artifactId, String version, String name) {
        return files.get(dir(artifactId, version) + name);
    }

    /** {artifactId, version, fileName} for a path in the group's layout, else null. */
    String[] relative(String path) {
        if (!path.startsWith(groupPath + "/")) return null;
        String[] parts = path.substring(groupPath.length() + 1).split("/");
        return parts.length == 3 ? parts : null;
    }
}
