package org.ccl4j.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class's {@code main} in a new JVM with this one's class path and library path, for tests
 * whose failure would take the JVM down (a crash must fail the test, not end the test run) or
 * that measure a process from its start.
 */
public final class ForkedJvm {
    private ForkedJvm() {
    }

    /** What the forked JVM did: its exit code (-1 when it was killed for running too long) and output. */
    public record Result(int exitCode, boolean finished, String output) {
        /** The output, and what happened, for an assertion message. */
        public String describe() {
            return (finished ? "exit code " + exitCode : "killed after the time limit") + ", output:\n" + output;
        }
    }

    /**
     * Runs {@code main} with {@code jvmOptions} and {@code args}, its output (stdout and stderr) in
     * {@code dir}, and waits at most {@code timeout}.
     */
    public static Result run(Path dir, Class<?> main, List<String> jvmOptions, List<String> args, long timeout,
                             TimeUnit unit) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Djava.library.path=" + System.getProperty("java.library.path", ""),
                // surefire runs the tests from a manifest-only jar; this is the class path that jar names
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                main.getName()));
        command.addAll(args);
        Path log = Files.createTempFile(dir, main.getSimpleName(), ".txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = p.waitFor(timeout, unit);
        if (!finished) {
            p.destroyForcibly().waitFor();
        }
        return new Result(finished ? p.exitValue() : -1, finished, Files.readString(log));
    }
}
