package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers of the command-line tests: a run of {@link Main} in this JVM, and values of its JSON. */
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
