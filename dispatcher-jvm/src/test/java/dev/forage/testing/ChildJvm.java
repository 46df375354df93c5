package dev.forage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A fresh JVM on this test run's class path, for what one JVM can do only once (a small heap's limit, the first
 * use of a JDK subsystem).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * Runs {@code main} with {@code args} under {@code flags}, and returns its output (stdout and stderr together)
     * once it exited with status 0; fails the test, with the output, if it did not within {@code minutes}.
     */
    public static String run(int minutes, List<String> flags, Class<?> main, String... args) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(flags);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = readAll(p.getInputStream());
        assertTrue(p.waitFor(minutes, TimeUnit.MINUTES), out);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int n;
        while ((n = in.read(chunk)) > 0) {
            buffer.write(chunk, 0, n);
        }
        return buffer.toString(StandardCharsets.UTF_8.name());
    }
}
