package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDKs a comparison runs on: the options, finding a JDK 25 in a fake install layout, and the plan's rounds. */
class JdkTest {
    /** A JDK home under {@code dir}: an executable bin/java (never run: the release file gives the version). */
    private static Path fakeJdk(Path dir, String version) throws IOException {
        Files.createDirectories(dir.resolve("bin"));
        Path java = dir.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\nexit 3\n");
        assertTrue(java.toFile().setExecutable(true));
        Files.writeString(dir.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_RUNTIME_VERSION=\""
                + version + "\"\nJAVA_VERSION=\"" + version.replaceAll("[+-].*", "") + "\"\n");
        return java;
    }

    private static final Jdk SEVENTEEN = new Jdk("/jdk17/bin/java", 17, "17.0.15+6");
    private static final Jdk TWENTY_FIVE = new Jdk("/jdk25/bin/java", 25, "25+36-LTS");

    @Test
    void featureVersionsOfEveryShape() {
        assertEquals(17, Jdk.feature("17.0.15+6-Debian-1deb12u1"));
        assertEquals(25, Jdk.feature("25"));
        assertEquals(25, Jdk.feature("25-ea"));
        assertEquals(25, Jdk.feature("25.0.1+8-LTS"));
        assertEquals(8, Jdk.feature("1.8.0_392"));
        assertThrows(IllegalArgumentException.class, () -> Jdk.feature("latest"));
    }

    @Test
    void jvmsAndJvmAreParsedAndTheDefaultLeavesTheChoiceToDiscovery() {
        assertNull(Options.parse(new String[] {"--quick"}).jvms, "no option: found at run time");
        assertEquals(List.of("/a/bin/java", "/b"), Options.parse(new String[] {"--jvms", "/a/bin/java, /b"}).jvms);
        assertEquals(List.of("/x/bin/java"), Options.parse(new String[] {"--jvm", "/x/bin/java"}).jvms);
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--jvms"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--jvms", ","}));
        assertTrue(Options.USAGE.contains("--jvms") && Options.USAGE.contains("--jvm "), Options.USAGE);
    }

    @Test
    void aJdkIsAJavaExecutableOrAHomeAndItsReleaseFileGivesItsVersion(@TempDir Path tmp) throws IOException {
        Path java = fakeJdk(tmp.resolve("temurin-25-jdk-amd64"), "25+36-LTS");
        Jdk byExecutable = Jdk.of(java.toString());
        assertEquals(25, byExecutable.feature);
        assertEquals("25+36-LTS", byExecutable.version);
        assertEquals("JDK 25", byExecutable.label());
        Jdk byHome = Jdk.of(tmp.resolve("temurin-25-jdk-amd64").toString());
        assertEquals(java.toString(), byHome.java);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Jdk.of(tmp.resolve("nothing/here").toString()));
        assertTrue(e.getMessage().contains("neither a java executable nor a JDK home"), e.getMessage());
    }

    @Test
    void aJdk25IsFoundInDebiansFolderLikeTheCiScriptFindsIt(@TempDir Path root) throws IOException {
        Map<String, String> noEnv = Map.of();
        assertNull(Jdk.findSecond(noEnv, root, root.resolve("home")), "an empty machine has none");
        fakeJdk(root.resolve("usr/lib/jvm/java-17-openjdk-amd64"), "17.0.15+6-Debian-1deb12u1");
        // A folder whose name says 25 but whose JDK is not one: the version decides, not the name.
        fakeJdk(root.resolve("usr/lib/jvm/zulu-1.8.0-25"), "1.8.0_25");
        assertNull(Jdk.findSecond(noEnv, root, root.resolve("home")));
        Path temurin = fakeJdk(root.resolve("usr/lib/jvm/temurin-25-jdk-amd64"), "25+36-LTS");
        Jdk found = Jdk.findSecond(noEnv, root, root.resolve("home"));
        assertEquals(temurin.toString(), found.java);
        assertEquals(25, found.feature);
    }

    @Test
    void sdkmanAndMacOsFoldersAreLookedInToo(@TempDir Path root) throws IOException {
        Path sdk = fakeJdk(root.resolve("home/.sdkman/candidates/java/25.0.1-tem"), "25.0.1+8-LTS");
        assertEquals(sdk.toString(), Jdk.findSecond(Map.of(), root, root.resolve("home")).java);
        Path other = root.resolve("mac");
        Path mac = fakeJdk(other.resolve("Library/Java/JavaVirtualMachines/temurin-25.jdk/Contents/Home"), "25+36");
        assertEquals(mac.toString(), Jdk.findSecond(Map.of(), other, other.resolve("home")).java);
    }

    @Test
    void forageJdk25WinsAndMustBeAJdk25(@TempDir Path root) throws IOException {
        fakeJdk(root.resolve("usr/lib/jvm/temurin-25-jdk-amd64"), "25+36-LTS");
        Path mine = fakeJdk(root.resolve("opt/my-25"), "25.0.2+10");
        Jdk j = Jdk.findSecond(Map.of("FORAGE_JDK25", root.resolve("opt/my-25").toString()), root, null);
        assertEquals(mine.toString(), j.java, "the variable, a JDK home, before the install folders");
        assertEquals(mine.toString(), Jdk.findSecond(Map.of("FORAGE_JDK25", mine.toString()), root, null).java,
                "or its bin/java");
        Path seventeen = fakeJdk(root.resolve("opt/17"), "17.0.15+6");
        IllegalArgumentException notThat = assertThrows(IllegalArgumentException.class,
                () -> Jdk.findSecond(Map.of("FORAGE_JDK25", seventeen.toString()), root, null));
        assertTrue(notThat.getMessage().contains("is a JDK 17, not a JDK 25"), notThat.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Jdk.findSecond(Map.of("FORAGE_JDK25", root.resolve("gone").toString()), root, null));
    }

    @Test
    void byDefaultBothJdksWhenA25IsFoundAndTheHeaderSaysWhenOnlyOneIs() {
        Jdk.Choice both = Jdk.choose(null, Budget.FULL, SEVENTEEN, TWENTY_FIVE);
        assertEquals(List.of(SEVENTEEN, TWENTY_FIVE), both.jdks());
        assertTrue(both.several());
        assertEquals(2, Jdk.choose(null, Budget.QUICK, SEVENTEEN, TWENTY_FIVE).jdks().size(), "the demo too");

        Jdk.Choice one = Jdk.choose(null, Budget.FULL, SEVENTEEN, null);
        assertEquals(List.of(SEVENTEEN), one.jdks());
        assertTrue(one.note().startsWith("JDK 17 only: no JDK 25 found"), one.note());

        Jdk.Choice on25 = Jdk.choose(null, Budget.FULL, TWENTY_FIVE, TWENTY_FIVE);
        assertEquals(List.of(TWENTY_FIVE), on25.jdks(), "the runner's own JDK is the 25: not twice");

        Jdk.Choice tiny = Jdk.choose(null, Budget.TINY, SEVENTEEN, TWENTY_FIVE);
        assertEquals(List.of(SEVENTEEN), tiny.jdks(), "the tests' budget stays on the runner's JDK");
    }

    @Test
    void givenJdksAreSortedOldestFirstAndOnePerFeatureVersion(@TempDir Path tmp) throws IOException {
        Path j25 = fakeJdk(tmp.resolve("a25"), "25+36-LTS");
        Path j17 = fakeJdk(tmp.resolve("b17"), "17.0.15+6");
        Jdk.Choice c = Jdk.choose(List.of(j25.toString(), j17.toString()), Budget.FULL, SEVENTEEN, null);
        assertEquals(List.of(17, 25), c.jdks().stream().map(j -> j.feature).toList(),
                "JDK 17's table first: the docs' quotes without @JDK read it");
        Path another17 = fakeJdk(tmp.resolve("c17"), "17.0.9+9");
        assertThrows(IllegalArgumentException.class,
                () -> Jdk.choose(List.of(j17.toString(), another17.toString()), Budget.FULL, SEVENTEEN, null));
        Jdk.Choice jvm = Jdk.choose(List.of(j17.toString()), Budget.FULL, SEVENTEEN, TWENTY_FIVE);
        assertEquals(1, jvm.jdks().size(), "--jvm keeps the run on that one JDK, found 25 or not");
    }

    @Test
    void eachRoundRunsEverySubjectOnEveryJdkAndEachChildOnItsJava() {
        Options o = Options.parse(new String[] {"--short", "--scenarios", "fib-join", "--subjects", "forkjoin,common",
                "--forks", "2"});
        List<Compare.Planned> plan = Compare.plan(o, List.of(SEVENTEEN, TWENTY_FIVE));
        List<String> order = new ArrayList<>();
        for (Compare.Planned p : plan) {
            order.add(p.fork + ":" + p.jdk.feature + ":" + p.budget.name + ":" + p.subject.id());
        }
        assertEquals(List.of(
                "1:17:full:forkjoin", "1:17:full:common", "1:17:short:forkjoin", "1:17:short:common",
                "1:25:full:forkjoin", "1:25:full:common", "1:25:short:forkjoin", "1:25:short:common",
                "2:17:full:forkjoin", "2:17:full:common", "2:17:short:forkjoin", "2:17:short:common",
                "2:25:full:forkjoin", "2:25:full:common", "2:25:short:forkjoin", "2:25:short:common"), order);
        assertEquals("/jdk25/bin/java", Compare.childCommand(o, plan.get(4)).get(0));
        assertEquals("/jdk17/bin/java", Compare.childCommand(o, plan.get(0)).get(0));
    }
}
