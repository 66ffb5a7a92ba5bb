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
 * that measure or configure a process from its start.
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

    /** A started JVM; {@link #await} waits for it. */
    public record Started(Process process, Path log) {
        /** Waits at most {@code timeout} for the JVM, killing it after that. */
        public Result await(long timeout, TimeUnit unit) throws IOException, InterruptedException {
            boolean finished = process.waitFor(timeout, unit);
            if (!finished) {
                process.destroyForcibly().waitFor();
            }
            return new Result(finished ? process.exitValue() : -1, finished, Files.readString(log));
        }
    }

    /**
     * Runs {@code main} with {@code jvmOptions} (which may override the library path) and
     * {@code args}, its output (stdout and stderr) in {@code dir}, and waits at most {@code timeout}.
     */
    public static Result run(Path dir, Class<?> main, List<String> jvmOptions, List<String> args, long timeout,
                             TimeUnit unit) throws IOException, InterruptedException {
        return start(dir, main, jvmOptions, args).await(timeout, unit);
    }

    /** Starts {@code main} as {@link #run} does, without waiting. */
    public static Started start(Path dir, Class<?> main, List<String> jvmOptions, List<String> args)
            throws IOException {
        return start(dir, main, jvmOptions, args, 0);
    }

    /**
     * Starts {@code main} as {@link #run} does, its address space limited to {@code limitBytes}
     * ({@code ulimit -v}; 0: no limit), so that an allocation beyond it fails instead of growing
     * the process until the kernel's out-of-memory killer ends it.
     */
    public static Started start(Path dir, Class<?> main, List<String> jvmOptions, List<String> args, long limitBytes)
            throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-Djava.library.path=" + System.getProperty("java.library.path", "")));
        command.addAll(jvmOptions);
        // surefire runs the tests from a manifest-only jar; this is the class path that jar names
        command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")), main.getName()));
        command.addAll(args);
        if (limitBytes > 0) {
            command.addAll(0, List.of("bash", "-c", "ulimit -v " + limitBytes / 1024 + " && exec \"$@\"", "bash"));
        }
        Path log = Files.createTempFile(dir, main.getSimpleName(), ".txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new Started(p, log);
    }
}
