package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers of the command-line tests: a run of {@link Main} in this JVM or in one of its own, values of its JSON. */
final class CliTestSupport {
    private CliTestSupport() {
    }

    /** The exit code of a run and what it printed to standard output and standard error. */
    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        return run(false, args);
    }

    /**
     * A run whose standard output and error are captured (standard output is thus redirected);
     * {@code stderrIsTerminal} says whether the command is to take standard error for a terminal.
     */
    static Result run(boolean stderrIsTerminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), stderrIsTerminal);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A run whose standard input holds {@code stdin} ({@link System#in} is replaced for the run and
     * put back after it), as {@link #run(String...)}.
     */
    static Result runWithInput(byte[] stdin, String... args) {
        InputStream in = System.in;
        System.setIn(new ByteArrayInputStream(stdin));
        try {
            return run(args);
        } finally {
            System.setIn(in);
        }
    }

    /**
     * A run of {@code ccl4j} in a JVM of its own, in {@code dir}, for what cannot be done to the
     * test JVM: a small heap ({@code jvmOptions}), a file-size limit ({@code shell}, a bash command
     * run before the JVM starts, or null). The exit code is the one {@code main} gives System.exit.
     */
    static Result forked(Path dir, List<String> jvmOptions, String shell, String... args)
            throws IOException, InterruptedException {
        // standard output and error go to files outside dir, whose contents the tests check
        Path streams = Files.createTempDirectory("ccl4j-forked-");
        try {
            Process process = forkedProcess(dir, jvmOptions, shell, args)
                    .redirectOutput(streams.resolve("out").toFile()).redirectError(streams.resolve("err").toFile())
                    .start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("the forked ccl4j did not finish in 2 minutes");
            }
            return new Result(process.exitValue(), Files.readString(streams.resolve("out")),
                    Files.readString(streams.resolve("err")));
        } finally {
            for (String name : List.of("out", "err")) {
                Files.deleteIfExists(streams.resolve(name));
            }
            Files.delete(streams);
        }
    }

    /** The process of {@link #forked}, to be started. */
    static ProcessBuilder forkedProcess(Path dir, List<String> jvmOptions, String shell, String... args) {
        List<String> command = new ArrayList<>();
        if (shell != null) {
            command.addAll(List.of("bash", "-c", shell + " && exec \"$0\" \"$@\""));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:-UsePerfData", "-cp",
                // surefire runs the tests from a manifest-only jar; this is the class path that jar names
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))));
        command.addAll(jvmOptions);
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(dir.toFile());
    }

    /** The first whole-number value of {@code key} in {@code json}. */
    static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(json);
        assertTrue(m.find(), key + " missing from " + json);
        return Long.parseLong(m.group(1));
    }

    /** The first string value of {@code key} in {@code json}. */
    static String text(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\"([^\"]*)\"").matcher(json);
        assertTrue(m.find(), key + " missing from " + json);
        return m.group(1);
    }
}
