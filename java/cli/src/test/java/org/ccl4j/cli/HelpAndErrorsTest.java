package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ccl4j.Backend;
import org.ccl4j.Capabilities;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.DeviceInfo;
import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** What a user sees before any work: help, version, mistakes and how they are reported. */
class HelpAndErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each command with an option only its own help describes. */
    private static final Map<String, String> OWN_OPTION = Map.of(
            "label", "--keep-ids",
            "mesh", "--periodic-axes",
            "bench", "--mesh-algorithm",
            "percolation", "--lattice",
            "ising", "--sweeps",
            "coarsening", "--every",
            "info", "--json");

    @TempDir
    Path dir;

    private static JsonNode parse(String json) throws IOException {
        assertEquals(1, json.strip().lines().count(), "one JSON line: " + json);
        return JSON.readTree(json);
    }

    @Test
    void everyCommandHasItsOwnHelpWithHAndHelp() {
        for (Map.Entry<String, String> c : OWN_OPTION.entrySet()) {
            String command = c.getKey();
            Result longForm = run(command, "--help");
            Result shortForm = run(command, "-h");
            assertEquals(Main.OK, longForm.code(), command + ": " + longForm.err());
            assertEquals(Main.OK, shortForm.code(), command + " -h: " + shortForm.err());
            assertTrue(longForm.out().startsWith("usage: ccl4j " + command + " "), longForm.out());
            assertTrue(longForm.out().contains(c.getValue()), command + " --help: " + longForm.out());
            assertEquals(longForm.out(), shortForm.out(), command);
            assertEquals("", longForm.err() + shortForm.err(), command + ": help goes to standard output only");
            // the command's own help, not the usage of every command
            for (Map.Entry<String, String> other : OWN_OPTION.entrySet()) {
                if (!other.getKey().equals(command) && !other.getValue().equals("--json")) {
                    assertFalse(longForm.out().contains(other.getValue()), command + " --help shows "
                            + other.getValue());
                }
            }
            // ccl4j help COMMAND is the same text
            assertEquals(longForm.out(), run("help", command).out(), "help " + command);
        }
    }

    /** The command tree, as {@code ccl4j} runs it. */
    private static Map<String, CommandLine> commands() {
        StringWriter sink = new StringWriter();
        return Main.commandLine(false, new PrintWriter(sink), new PrintWriter(sink)).getSubcommands();
    }

    /**
     * Every command's help is formatted cleanly: picocli formats descriptions with
     * String.format, and a lone % makes it warn on the JVM's standard error ("[picocli WARN]
     * Could not format ...") and print the raw text; and no list of choices is followed by an
     * exception that the list itself should have left out ("auto, ..., java except java").
     */
    @Test
    void everyCommandsHelpIsFormattedWithoutWarningsOrGarbledLists() {
        Pattern excepted = Pattern.compile("((?:[\\w-]+, )+[\\w-]+)\\s+except\\s+([\\w-]+)");
        PrintStream jvmErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        Set<String> names = new TreeSet<>(commands().keySet());
        assertTrue(names.containsAll(OWN_OPTION.keySet()), names.toString());
        try {
            // picocli's tracer writes to the System.err of the moment
            System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
            for (String command : names) {
                Result r = run(command, "--help");
                assertEquals(Main.OK, r.code(), command + ": " + r.err());
                String help = r.out() + r.err() + warnings.toString(StandardCharsets.UTF_8);
                assertFalse(help.contains("picocli WARN") || help.contains("Could not format"), command + ": " + help);
                Matcher list = excepted.matcher(help.replaceAll("\\s+", " "));
                while (list.find()) {
                    List<String> choices = Arrays.asList(list.group(1).split(", "));
                    assertFalse(choices.contains(list.group(2)), command + " lists what it excepts: " + list.group());
                }
            }
        } finally {
            System.setErr(jvmErr);
        }
        // the physics commands run natively: their --backend lists no java
        for (String command : List.of("percolation", "ising", "coarsening")) {
            String help = run(command, "--help").out().replaceAll("\\s+", " ");
            assertTrue(help.contains("auto, cuda, cpu, cpu-serial (default: auto)"), command + ": " + help);
        }
        assertTrue(run("coarsening", "--help").out().contains("30 % of the cells"));
    }

    /**
     * --quiet (alias --no-progress) is one option, with one description, on every command that
     * shows progress on standard error: label and distances show it while they read a large file.
     */
    @Test
    void quietIsTheSameOptionOnEveryCommandThatShowsProgress() throws IOException {
        Set<String> quiet = new TreeSet<>();
        OptionSpec first = null;
        for (Map.Entry<String, CommandLine> c : commands().entrySet()) {
            OptionSpec option = c.getValue().getCommandSpec().findOption("--quiet");
            if (option == null) {
                assertTrue(c.getValue().getCommandSpec().findOption("--no-progress") == null, c.getKey());
                continue;
            }
            quiet.add(c.getKey());
            assertEquals(List.of("--no-progress", "--quiet"), List.of(option.names()), c.getKey());
            if (first != null) {
                assertEquals(List.of(first.description()), List.of(option.description()), c.getKey());
            }
            first = option;
        }
        assertEquals(new TreeSet<>(List.of("bench", "coarsening", "convert", "distances", "ising", "label", "mesh",
                "percolation")), quiet);
        Path edges = Files.writeString(dir.resolve("g.edges"), "0 1\n");
        for (String command : List.of("label", "distances")) {
            Result r = run(command, edges.toString(), "--quiet", "--json");
            assertEquals(Main.OK, r.code(), command + ": " + r.out() + r.err());
            assertEquals("", r.err(), command);
        }
    }

    @Test
    void theHelpListsTheNamesOfEachChoice() {
        String label = run("label", "--help").out();
        assertTrue(label.contains("auto, cuda, cpu, cpu-serial, java"), label);
        assertTrue(label.contains("auto, ecl, "), label);
        String mesh = run("mesh", "--help").out();
        assertTrue(mesh.contains("foreground, same-value"), mesh);
        String percolation = run("percolation", "--help").out();
        assertTrue(percolation.contains("honeycomb") && percolation.contains("bethe-random"), percolation);
    }

    @Test
    void topLevelHelpListsTheCommandsAndDocumentsTheExitCodes() {
        for (List<String> args : List.of(List.of("--help"), List.of("-h"), List.of("help"))) {
            Result r = run(args.toArray(String[]::new));
            assertEquals(Main.OK, r.code(), args + ": " + r.err());
            for (String command : OWN_OPTION.keySet()) {
                assertTrue(r.out().contains("\n  " + command + " "), args + " lists " + command + ": " + r.out());
            }
            String codes = r.out().substring(r.out().indexOf("Exit codes:"));
            for (String line : List.of("0 +success", "1 +a native failure", "2 +a usage error", "3 +invalid input",
                    "4 +the backend is unavailable")) {
                assertTrue(Pattern.compile("\n  " + line).matcher(codes).find(), args + ": " + line + " in " + codes);
            }
            assertTrue(r.out().contains("{\"error\":\"MESSAGE\",\"kind\":\"KIND\",\"exitCode\":N}"), r.out());
        }
        Result none = run();
        assertEquals(Main.USAGE, none.code());
        assertTrue(none.err().startsWith("ccl4j: missing command") && none.err().contains("Exit codes:"), none.err());
    }

    @Test
    void versionNamesTheJarTheNativeLibraryAndCuda() {
        String expected = System.getProperty("ccl4j.expectedVersion");
        assertNotNull(expected, "surefire passes the Maven project version");
        Capabilities c = ComponentLabeler.capabilities();
        for (String option : List.of("--version", "-V")) {
            Result r = run(option);
            assertEquals(Main.OK, r.code(), r.err());
            List<String> lines = r.out().lines().toList();
            assertEquals("ccl4j " + expected, lines.get(0));
            assertTrue(lines.get(1).startsWith("native library " + c.version() + ", "), lines.get(1));
            assertTrue(lines.get(1).contains(c.cudaCompiled() ? "CUDA" : "CUDA not compiled in"), lines.get(1));
            assertTrue(lines.get(2).startsWith("Java " + System.getProperty("java.version")), lines.get(2));
        }
        assertEquals(run("--version").out(), run("label", "--version").out());
    }

    /** info names the version --version names (the project's), and the native library's as such. */
    @Test
    void infoSaysTheVersionThatVersionSays() throws IOException {
        String expected = System.getProperty("ccl4j.expectedVersion");
        Capabilities c = ComponentLabeler.capabilities();
        assertEquals("ccl4j " + expected, run("--version").out().lines().findFirst().orElseThrow());
        List<String> info = run("info").out().lines().toList();
        assertEquals("ccl4j " + expected, info.get(0));
        assertEquals("library:       version " + c.version() + ", " + c.nativeLibrary() + " ("
                + c.nativeLibraryOrigin() + ")", info.get(1));
        JsonNode json = parse(run("info", "--json").out());
        assertEquals(expected, json.get("version").asText());
        assertEquals(c.version(), json.get("nativeLibraryVersion").asText());
    }

    @Test
    void aMistypedOptionOrCommandGetsASuggestion() {
        Result r = run("label", "graph.mtx", "--jsn");
        assertEquals(Main.USAGE, r.code());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("ccl4j: Unknown option: '--jsn'\nDid you mean --json?\n"), r.err());
        // the command's synopsis, not the usage of every command
        assertTrue(r.err().contains("usage: ccl4j label [OPTIONS] FILE\nTry 'ccl4j label --help'"), r.err());
        assertTrue(r.err().lines().count() <= 4, r.err());

        r = run("mesh", "--generate", "spiral:5", "--conectivity", "8");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().contains("Did you mean --connectivity?"), r.err());

        r = run("lable", "graph.mtx");
        assertEquals(Main.USAGE, r.code());
        assertTrue(r.err().startsWith("ccl4j: unknown command 'lable'\nDid you mean label?\n"), r.err());
    }

    @Test
    void withJsonAnErrorIsOneJsonObjectOnStandardOutput() throws IOException {
        Path missing = dir.resolve("missing.mtx");
        Result r = run("label", missing.toString(), "--json");
        assertEquals(Main.INVALID_INPUT, r.code());
        assertEquals("", r.err());
        JsonNode error = parse(r.out());
        assertEquals("invalid-input", error.get("kind").asText());
        assertEquals(Main.INVALID_INPUT, error.get("exitCode").asInt());
        assertEquals("invalid input: no such file: " + missing, error.get("error").asText());
        // without --json, the same message on standard error
        Result plain = run("label", missing.toString());
        assertEquals(Main.INVALID_INPUT, plain.code());
        assertEquals("", plain.out());
        assertEquals("ccl4j: invalid input: no such file: " + missing + "\n", plain.err());

        // a usage error found by picocli, wherever --json stands
        r = run("label", "--json", "x.mtx", "--backend", "gpu");
        assertEquals(Main.USAGE, r.code());
        error = parse(r.out());
        assertEquals("usage", error.get("kind").asText());
        assertEquals(Main.USAGE, error.get("exitCode").asInt());
        assertTrue(error.get("error").asText().contains("unknown backend 'gpu'; expected one of auto, cuda, cpu,"),
                error.toString());

        // a usage error found by the command, with the suggestions for a typo
        r = run("mesh", "--generate", "spiral:5", "--conectivity", "8", "--json");
        error = parse(r.out());
        assertEquals("usage", error.get("kind").asText());
        assertEquals("--connectivity", error.get("suggestions").get(0).asText(), error.toString());
        r = run("mesh", "--generate", "spiral:5", "--dims", "5x5", "--json");
        assertEquals(Main.USAGE, r.code());
        assertEquals("--dims applies to files, not to --generate", parse(r.out()).get("error").asText());

        // a malformed file: the message names it and the line
        Path bad = Files.writeString(dir.resolve("bad.edges"), "0 1\n1 2 x\n");
        r = run("label", bad.toString(), "--format", "edges", "--json");
        assertEquals(Main.INVALID_INPUT, r.code());
        assertTrue(parse(r.out()).get("error").asText().contains("bad.edges:2"), r.out());
    }

    /**
     * A long token is quoted shortened, with its length, wherever it comes from: an option's value,
     * a number, a word of a file as the reader's message quotes it, a line of a CSV read back.
     */
    @Test
    void aLongBadTokenIsQuotedShortenedWithItsLength() throws IOException {
        String x = "x".repeat(4096);
        String step = "0." + "0".repeat(4092) + "1"; // 1e-4093: 0 as a double
        Path edges = Files.writeString(dir.resolve("g.edges"), "0 1\n");
        Path badCsv = Files.writeString(dir.resolve("bad.csv"), "lattice,size,length,p,trials,spanning,R,error,"
                + "ms_per_realisation,label_ms_per_realisation,backend,algorithm\n" + x + "\n");
        Path badWord = Files.writeString(dir.resolve("bad.edges"), "0 1 2 " + x + "\n"); // after the weight
        Map<List<String>, String> quoting = Map.of(
                List.of("label", edges.toString(), "--backend", x), x,
                List.of("mesh", "--generate", "spiral:8", "--region", x), x,
                List.of("percolation", "--p", "0:1:" + x), "0:1:" + x,
                List.of("percolation", "--p", "0:1:" + step), "0:1:" + step,
                List.of("percolation", "--from-csv", badCsv.toString()), x,
                List.of("label", badWord.toString(), "--format", "edges"), x);
        for (Map.Entry<List<String>, String> c : quoting.entrySet()) {
            List<String> command = c.getKey();
            String token = c.getValue();
            String shortened = "'" + token.substring(0, Errors.TOKEN_CHARACTERS) + "...' (" + token.length()
                    + " characters)";
            Result r = run(command.toArray(String[]::new));
            String what = command.get(0) + " " + command.get(command.size() - 2);
            assertTrue(r.err().startsWith("ccl4j: ") && r.err().contains(shortened), what + ": " + r.err());
            assertFalse(r.err().contains(token.substring(0, Errors.TOKEN_CHARACTERS + 1)), what + ": " + r.err());

            List<String> json = new ArrayList<>(List.of(command.get(0), "--json"));
            json.addAll(command.subList(1, command.size()));
            String error = parse(run(json.toArray(String[]::new)).out()).get("error").asText();
            assertTrue(error.contains(shortened) && error.length() < 500, what + " --json: " + error);
        }
        // a number, which picocli quotes
        Result r = run("label", edges.toString(), "--threads", "9".repeat(4096));
        assertTrue(r.err().startsWith("ccl4j: Invalid value for option '--threads': '" + "9".repeat(60)
                + "...' (4096 characters) is not an int"), r.err());
    }

    @Test
    void onlyLongQuotedTokensAreShortened() {
        String token = "\u00e9".repeat(60);
        assertEquals("the file's token '" + token + "' is bad", Errors.shortenTokens("the file's token '" + token
                + "' is bad"));
        assertEquals("found '" + token + "...' (61 characters); the cells' values are 'ab'",
                Errors.shortenTokens("found '" + token + "\u00e9'; the cells' values are 'ab'"));
        String surrogates = "\uD83D\uDE00".repeat(61);
        assertEquals("'" + "\uD83D\uDE00".repeat(60) + "...' (61 characters)", Errors.shortenTokens("'" + surrogates
                + "'"), "characters, not chars: a pair is not cut");
    }

    /**
     * An unusable CUDA backend is named in the words of info ("driver not installed", no device),
     * not by the CUDA runtime's error, which follows in parentheses; other reasons are kept.
     */
    @Test
    void anUnusableCudaBackendIsNamedInTheWordsOfInfo() throws IOException {
        String raw = "no usable CUDA driver or device: cudaErrorInsufficientDriver (CUDA driver version is"
                + " insufficient for CUDA runtime version)";
        Capabilities noDriver = new Capabilities("0.1.0", Set.of(Backend.JAVA), true, List.of("sm_90"), 13000, 0,
                List.of(), 4, "libccl4j.so", "java.library.path", null);
        assertEquals("the CUDA driver is not installed (" + raw + ")", Errors.unavailable(raw, () -> noDriver));
        Capabilities noDevice = new Capabilities("0.1.0", Set.of(Backend.JAVA), true, List.of("sm_90"), 13000, 13000,
                List.of(), 4, "libccl4j.so", "java.library.path", null);
        String none = "no usable CUDA driver or device: cudaErrorNoDevice (no CUDA-capable device is detected)";
        assertEquals("no CUDA device is present (" + none + ")", Errors.unavailable(none, () -> noDevice));
        Capabilities both = new Capabilities("0.1.0", Set.of(Backend.JAVA, Backend.CUDA), true, List.of("sm_90"),
                13000, 13000, List.of(new DeviceInfo(0, "GPU", 1L << 30, 9, 0, 132)), 4, "libccl4j.so",
                "java.library.path", null);
        assertEquals(raw, Errors.unavailable(raw, () -> both), "no better words: the library's reason");
        String other = "CUDA device 3 does not exist (1 devices)";
        assertEquals(other, Errors.unavailable(other, () -> noDriver));

        // the same words on the command line, where this machine has no driver
        Capabilities c = ComponentLabeler.capabilities();
        if (!c.cudaCompiled() || c.cudaDriverVersion() != 0) {
            System.out.println("NOTICE: a CUDA driver is installed (or CUDA not compiled in) - its absence is not"
                    + " exercised");
            return;
        }
        Path edges = Files.writeString(dir.resolve("g.edges"), "0 1\n");
        Result r = run("label", edges.toString(), "--backend", "cuda");
        assertEquals(Main.BACKEND_UNAVAILABLE, r.code());
        assertTrue(r.err().startsWith("ccl4j: backend unavailable: the CUDA driver is not installed (no usable CUDA"
                + " driver or device: "), r.err());
        assertTrue(run("info").out().contains(", driver not installed"));
    }

    @Test
    void withJsonAnUnavailableBackendIsKindBackendUnavailable() throws IOException {
        if (!ComponentLabeler.capabilities().devices().isEmpty()) {
            System.out.println("NOTICE: a CUDA device is present - exit code 4 is not exercised");
            return;
        }
        Path edges = Files.writeString(dir.resolve("g.edges"), "0 1\n");
        Result r = run("label", edges.toString(), "--backend", "cuda", "--json");
        assertEquals(Main.BACKEND_UNAVAILABLE, r.code());
        JsonNode error = parse(r.out());
        assertEquals("backend-unavailable", error.get("kind").asText());
        assertEquals(Main.BACKEND_UNAVAILABLE, error.get("exitCode").asInt());
    }

    @Test
    void infoJsonListsAreArrays() throws IOException {
        Result r = run("info", "--json");
        assertEquals(Main.OK, r.code(), r.err());
        JsonNode info = parse(r.out());
        Capabilities c = ComponentLabeler.capabilities();
        JsonNode backends = info.get("backends");
        assertTrue(backends.isArray(), info.toString());
        List<String> names = new ArrayList<>();
        backends.forEach(b -> names.add(b.asText()));
        assertEquals("auto", names.get(0));
        assertTrue(names.contains("java"), names.toString());
        for (String name : names.subList(1, names.size())) {
            assertTrue(c.backends().contains(CliNames.parse(Backend.class, name)), name);
        }
        assertEquals(names.size(), names.stream().distinct().count(), names.toString());
        JsonNode architectures = info.get("cudaArchitectures");
        assertTrue(architectures.isArray(), info.toString());
        List<String> compiled = new ArrayList<>();
        architectures.forEach(a -> compiled.add(a.asText()));
        assertEquals(c.cudaArchitectures(), compiled);
        assertTrue(info.get("devices").isArray(), info.toString());
        assertEquals(c.devices().size(), info.get("devices").size());
        assertEquals(c.cpuThreads(), info.get("cpuThreads").asInt());
    }
}
