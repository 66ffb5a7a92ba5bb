package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.ccl4j.Backend;
import org.ccl4j.Capabilities;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        Path bad = Files.writeString(dir.resolve("bad.edges"), "0 1\n1 x\n");
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
