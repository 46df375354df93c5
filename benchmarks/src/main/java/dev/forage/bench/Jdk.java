package dev.forage.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One JDK the measuring JVMs run on: its java executable, its feature version (17, 25) and its full version. The
 * runner measures on JDK 17 and JDK 25 when both are there, because JDK 25's ForkJoinPool is not JDK 17's and a
 * user picks a scheduler on the JDK they run.
 */
final class Jdk {
    /** The feature version the runner looks for beside its own JDK. */
    static final int SECOND = 25;
    /** Where a JDK's version is read without starting it: every JDK since 9 has this file in its home. */
    private static final Pattern RELEASE_LINE = Pattern.compile("^(JAVA_VERSION|JAVA_RUNTIME_VERSION)=\"([^\"]*)\"$");
    private static final Pattern VERSION_OUTPUT = Pattern.compile("version \"([^\"]+)\"");

    /** The java executable. */
    final String java;
    final int feature;
    /** The version as the JDK gives it (17.0.15+6-Debian-1deb12u1), for the header when no child reported one. */
    final String version;

    Jdk(String java, int feature, String version) {
        this.java = java;
        this.feature = feature;
        this.version = version;
    }

    /** As tables and verdicts name it: {@code JDK 17}. */
    String label() {
        return "JDK " + feature;
    }

    /** The JDK this runner runs on. */
    static Jdk current() {
        return new Jdk(Path.of(System.getProperty("java.home"), "bin", "java").toString(), Runtime.version().feature(),
                System.getProperty("java.runtime.version"));
    }

    /**
     * A JDK from the command line: a java executable or a JDK home. Its version comes from the home's
     * {@code release} file, or else from {@code java -version} (a java that is not in a JDK home, a wrapper).
     */
    static Jdk of(String pathOrHome) {
        Path p = Path.of(pathOrHome);
        Path java = Files.isDirectory(p) ? p.resolve("bin").resolve("java") : p;
        boolean file = Files.isRegularFile(java) && Files.isExecutable(java);
        // A bare name (`--jvm java`) is a command on the PATH, as --jvm always took it; -version tells if it is one.
        boolean command = !file && !pathOrHome.contains("/") && !pathOrHome.contains(java.getFileSystem().getSeparator());
        if (!file && !command) {
            throw new IllegalArgumentException(pathOrHome + " is neither a java executable nor a JDK home with bin/java");
        }
        String version = file ? releaseVersion(java) : null;
        if (version == null) {
            version = runVersion(java);
        }
        if (version == null) {
            throw new IllegalArgumentException("cannot tell the version of " + java
                    + " (no release file beside it, and `java -version` said no version)");
        }
        return new Jdk(java.toString(), feature(version), version);
    }

    /** 17 of {@code 17.0.15+6}, 25 of {@code 25} or {@code 25-ea}, 8 of {@code 1.8.0_392}. */
    static int feature(String version) {
        Matcher m = Pattern.compile("^(\\d+)(?:\\.(\\d+))?").matcher(version);
        if (!m.find()) {
            throw new IllegalArgumentException("not a Java version: " + version);
        }
        int first = Integer.parseInt(m.group(1));
        return first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first;
    }

    /** The runtime version in the {@code release} file of the JDK home above {@code java} (bin/java), or null. */
    static String releaseVersion(Path java) {
        Path bin = java.toAbsolutePath().getParent();
        Path home = bin == null ? null : bin.getParent();
        if (home == null || !Files.isRegularFile(home.resolve("release"))) {
            return null;
        }
        String runtime = null;
        String plain = null;
        try {
            for (String line : Files.readAllLines(home.resolve("release"), StandardCharsets.UTF_8)) {
                Matcher m = RELEASE_LINE.matcher(line.trim());
                if (m.matches()) {
                    if (m.group(1).equals("JAVA_RUNTIME_VERSION")) {
                        runtime = m.group(2);
                    } else {
                        plain = m.group(2);
                    }
                }
            }
        } catch (IOException e) {
            return null;
        }
        // The runtime version carries the build (17.0.15+6-...); older release files have JAVA_VERSION only.
        return runtime != null && !runtime.isEmpty() ? runtime : plain;
    }

    /** The quoted version of {@code java -version}'s output, or null. */
    static String runVersion(Path java) {
        try {
            Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            Matcher m = VERSION_OUTPUT.matcher(out);
            return m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * A JDK 25, found as the repository's CI script finds one: {@code FORAGE_JDK25} (a JDK home or its bin/java)
     * when set, which must then be one; else the usual install folders (Debian and Ubuntu, SDKMAN!, macOS), under
     * {@code root} ("/" but in tests) and {@code userHome}. Null when there is none.
     */
    static Jdk findSecond(Map<String, String> env, Path root, Path userHome) {
        String set = env.get("FORAGE_JDK25");
        if (set != null && !set.isEmpty()) {
            Jdk j;
            try {
                j = of(set);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("FORAGE_JDK25=" + set + ": " + e.getMessage());
            }
            if (j.feature != SECOND) {
                throw new IllegalArgumentException("FORAGE_JDK25=" + set + " is a JDK " + j.feature + ", not a JDK "
                        + SECOND);
            }
            return j;
        }
        List<Path> candidates = new ArrayList<>();
        Path debian = root.resolve("usr/lib/jvm");
        candidates.addAll(homes(debian, "temurin-25*", "bin/java"));
        candidates.addAll(homes(debian, "*-25*", "bin/java"));
        candidates.addAll(homes(debian, "jdk-25*", "bin/java"));
        if (userHome != null) {
            candidates.addAll(homes(userHome.resolve(".sdkman/candidates/java"), "25*", "bin/java"));
        }
        candidates.addAll(homes(root.resolve("Library/Java/JavaVirtualMachines"), "*25*", "Contents/Home/bin/java"));
        for (Path c : candidates) {
            if (!Files.isRegularFile(c) || !Files.isExecutable(c)) {
                continue;
            }
            String v = releaseVersion(c);
            if (v == null) {
                v = runVersion(c);
            }
            // A folder named *-25* need not hold a JDK 25 (a 1.8.0_25, say): the version decides.
            if (v != null && feature(v) == SECOND) {
                return new Jdk(c.toString(), SECOND, v);
            }
        }
        return null;
    }

    /** {@code dir/<entry matching glob>/tail} for every entry, in name order (none if dir is absent). */
    private static List<Path> homes(Path dir, String glob, String tail) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            for (Path p : ds) {
                out.add(p.resolve(tail));
            }
        } catch (IOException e) {
            return out;
        }
        out.sort(Comparator.comparing(Path::toString));
        return out;
    }

    /** The JDKs of a run and what the header says about their choice. */
    record Choice(List<Jdk> jdks, String note) {
        boolean several() {
            return jdks.size() > 1;
        }
    }

    /**
     * The JDKs to measure on. Given ones ({@code --jvm}, {@code --jvms}) as given, in feature order; by default
     * this runner's JDK and, when one is found and this is not one, a JDK 25 beside it; the tests' tiny budget
     * measures on this JDK only (seconds, not a comparison).
     */
    static Choice choose(List<String> given, Budget budget, Jdk current, Jdk second) {
        List<Jdk> jdks = new ArrayList<>();
        if (given != null) {
            for (String g : given) {
                Jdk j = of(g);
                for (Jdk other : jdks) {
                    if (other.feature == j.feature) {
                        throw new IllegalArgumentException(g + " and " + other.java + " are both a JDK " + j.feature
                                + "; give one java per JDK");
                    }
                }
                jdks.add(j);
            }
            jdks.sort(Comparator.comparingInt(j -> j.feature));
            return new Choice(jdks, jdks.size() > 1 ? "" : jdks.get(0).label() + " only, as the command line asked");
        }
        jdks.add(current);
        if (budget.isTiny()) {
            return new Choice(jdks, current.label() + " only (the tiny budget measures on the runner's JDK)");
        }
        if (current.feature == SECOND) {
            return new Choice(jdks, current.label() + " only: the runner's own JDK is a JDK " + SECOND
                    + "; pass --jvms to add another");
        }
        if (second == null) {
            return new Choice(jdks, current.label() + " only: no JDK " + SECOND + " found; set FORAGE_JDK25 to a JDK "
                    + SECOND + " home to measure on both");
        }
        jdks.add(second);
        return new Choice(jdks, "");
    }
}
