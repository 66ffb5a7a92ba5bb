package org.ccl4j.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * What the build does for the person who runs it, beside the jars: the progress that {@code ./ccl4j}
 * shows while it builds the jar on first use (its {@code build_progress}, fed a Maven log), the
 * number of compile jobs of the native build ({@code .mvn/native-build-jobs.sh}), and one
 * {@code junit-platform.properties} on each module's test class path.
 */
class BuildToolsTest {
    private final Path root = Path.of(System.getProperty("ccl4j.root", "."));

    /** A first build's Maven output, as {@code ./ccl4j} reads it (batch mode, CUDA on), shortened. */
    private static final String MAVEN_LOG = """
            [INFO] Scanning for projects...
            [INFO] Reactor Build Order:
            [INFO] ccl4j                                                              [pom]
            [INFO] ------------------------< org.ccl4j:ccl4j-parent >-------------------------
            [INFO] Building ccl4j 0.1.0-SNAPSHOT                                      [1/5]
            [INFO]   from pom.xml
            [INFO] --------------------------------[ pom ]---------------------------------
            [INFO] Downloading from central: https://repo.maven.apache.org/maven2/a/a.pom
            [INFO] Downloaded from central: https://repo.maven.apache.org/maven2/a/a.pom (8.0 kB at 2.7 kB/s)
            [INFO] Downloaded from central: https://repo.maven.apache.org/maven2/b/b.jar (264 kB at 331 kB/s)
            [INFO] --- antrun:3.1.0:run (native-build-jobs) @ ccl4j-parent ---
            [INFO] Executing tasks
            [INFO]      [echo] native build jobs: 2 (2 cores, 18000 MiB available at 2048 MiB a job)
            [INFO] --- cmake:3.31.5-b1:generate (cmake-generate) @ ccl4j-parent ---
            [INFO] -- The CXX compiler identification is GNU 12.2.0
            [INFO] -- ccl4j 0.1.0
            [INFO] -- ccl4j: CUDA backend ON (nvcc 13.0.88, architectures 80-real;90-real;90-virtual)
            [INFO] -- Configuring done (12.1s)
            [INFO] --- cmake:3.31.5-b1:compile (cmake-compile) @ ccl4j-parent ---
            [INFO] [  1%] Building CXX object native/CMakeFiles/ccl4j_core.dir/src/api/graph.cpp.o
            [INFO] [  3%] Building CXX object native/CMakeFiles/ccl4j_core.dir/src/api/mesh.cpp.o
            [INFO] [  7%] Building CXX object native/CMakeFiles/ccl4j_core.dir/src/cpu/afforest.cpp.o
            [INFO] [ 12%] Building CUDA object native/CMakeFiles/ccl4j_core.dir/src/cuda/komura.cu.o
            [INFO] [ 14%] Building CUDA object native/CMakeFiles/ccl4j_core.dir/src/cuda/driver.cu.o
            [INFO] [ 55%] Linking CXX shared library ../target/native-lib/org/ccl4j/native/linux-x86_64/libccl4j.so
            [INFO] [ 55%] Built target ccl4j
            [INFO] [ 98%] Building CXX object native/tests/CMakeFiles/test_mesh.dir/test_mesh.cpp.o
            [INFO] [100%] Linking CXX executable test_mesh
            [INFO] [100%] Built target test_mesh
            [INFO] ------------------------< org.ccl4j:ccl4j-core >-------------------------
            [INFO] Building ccl4j core 0.1.0-SNAPSHOT                                 [2/5]
            [INFO] Compiling 187 source files with javac [debug target 23] to target/classes
            [INFO] Building jar: /work/ccl4j/java/core/target/ccl4j-core-0.1.0-SNAPSHOT.jar
            [INFO] Building ccl4j command line 0.1.0-SNAPSHOT                         [5/5]
            [INFO] BUILD SUCCESS
            """;

    @Test
    void theLauncherShowsTheStagesAndTheCompilesPercentage() throws Exception {
        List<String> lines = progress("lines");
        assertEquals(List.of(
                "ccl4j: [1/5] ccl4j",
                "ccl4j:   downloading plugins and libraries from Maven Central (first build)",
                "ccl4j:   native build jobs: 2 (2 cores, 18000 MiB available at 2048 MiB a job)",
                "ccl4j:   configuring the native build (CMake)",
                "ccl4j:   CUDA backend ON (nvcc 13.0.88, architectures 80-real;90-real;90-virtual)",
                "ccl4j:   compiling the native library (CMake)",
                // one line per tenth of the compile: the first file of each
                "ccl4j:   [  1%] compiling src/api/graph.cpp",
                "ccl4j:   [ 12%] compiling src/cuda/komura.cu",
                "ccl4j:   [ 55%] linking libccl4j.so",
                "ccl4j:   [ 98%] compiling test_mesh.cpp",
                "ccl4j:   [100%] linking test_mesh",
                "ccl4j: [2/5] ccl4j core",
                "ccl4j: [5/5] ccl4j command line"), lines);
    }

    @Test
    void onATerminalTheLauncherRewritesOneStatusLine() throws Exception {
        String out = String.join("\n", progress("tty"));
        // every compile step, each over the last (carriage return, erase the line), no line feed
        for (String step : List.of("[  1%] compiling src/api/graph.cpp", "[  3%] compiling src/api/mesh.cpp",
                "[  7%] compiling src/cpu/afforest.cpp", "[ 12%] compiling src/cuda/komura.cu",
                "[ 14%] compiling src/cuda/driver.cu", "[ 55%] linking libccl4j.so")) {
            assertTrue(out.contains("\r\033[Kccl4j:   " + step + "\r"), step + " in " + out);
        }
        assertTrue(out.contains("\r\033[Kccl4j:   downloaded from Maven Central: 2 files\r"), out);
        // the stages stay, each on a line of its own
        assertTrue(out.contains("\r\033[Kccl4j: [2/5] ccl4j core\n"), out);
        assertFalse(out.contains("[INFO]"), out);
    }

    @Test
    void nativeBuildJobsAreTheCoresBoundedByTwoGibibytesOfMemoryEach() throws Exception {
        // given: cores, available MiB -> jobs
        assertEquals("2", jobs("", "2", "18000").get("native.build.jobs"));
        assertEquals("4", jobs("", "16", "9000").get("native.build.jobs"));
        assertEquals("1", jobs("", "16", "3000").get("native.build.jobs"));
        assertEquals("1", jobs("", "8", "100").get("native.build.jobs"));
        assertEquals("8", jobs("", "8", "unknown").get("native.build.jobs"));
        // -Dccl4j.build.jobs=N wins; unset, Ant passes the expression itself
        Map<String, String> given = jobs("6", "2", "1000");
        assertEquals("6", given.get("native.build.jobs"));
        assertEquals("set by -Dccl4j.build.jobs", given.get("native.build.jobs.why"));
        assertEquals("2", jobs("${ccl4j.build.jobs}", "2", "18000").get("native.build.jobs"));
        // this machine
        Map<String, String> here = jobs("${ccl4j.build.jobs}");
        int n = Integer.parseInt(here.get("native.build.jobs"));
        assertTrue(n >= 1, "at least one job: " + here);
        assertTrue(here.get("native.build.jobs.why").matches("\\d+ cores?[,;].*"), here.toString());
        System.out.println("BuildToolsTest: this machine's native build jobs: " + here);
    }

    @Test
    void eachTestClassPathHasOneJunitPlatformProperties() throws IOException {
        // ccl4j-core's tests jar is on the test class path of the modules that share its helpers:
        // its junit-platform.properties stays out, theirs is their own
        Path testsJar;
        try (Stream<Path> jars = Files.list(root.resolve("java/core/target"))) {
            testsJar = jars.filter(p -> p.getFileName().toString().endsWith("-tests.jar")).findFirst().orElse(null);
        } catch (IOException e) {
            testsJar = null;
        }
        assumeTrue(testsJar != null, "java/core/target has no -tests jar (this module built alone)");
        try (JarFile jar = new JarFile(testsJar.toFile())) {
            assertEquals(null, jar.getEntry("junit-platform.properties"), testsJar + " holds junit-platform.properties");
        }
        List<String> missing = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root.resolve("java"))) {
            for (Path module : modules.sorted().toList()) {
                boolean usesCoreTests = Files.isRegularFile(module.resolve("pom.xml"))
                        && Files.readString(module.resolve("pom.xml")).contains("<type>test-jar</type>");
                boolean hasTests = Files.isDirectory(module.resolve("src/test/java"));
                if ((usesCoreTests || module.endsWith("core")) && hasTests
                        && !Files.isRegularFile(module.resolve("src/test/resources/junit-platform.properties"))) {
                    missing.add(root.relativize(module).toString());
                }
            }
        }
        assertEquals(List.of(), missing, "modules without a junit-platform.properties of their own");
    }

    /** build_progress of the launcher, sourced, over {@link #MAVEN_LOG}. */
    private List<String> progress(String mode) throws Exception {
        Path script = root.resolve("ccl4j").toAbsolutePath();
        assumeTrue(Files.isRegularFile(script), "no " + script);
        return run(MAVEN_LOG, "bash", "-c", "source \"$1\" && build_progress \"$2\"", "bash", script.toString(), mode);
    }

    private Map<String, String> jobs(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", root.resolve(".mvn/native-build-jobs.sh").toString()));
        command.addAll(List.of(args));
        Map<String, String> properties = new TreeMap<>();
        for (String line : run("", command.toArray(String[]::new))) {
            int eq = line.indexOf('=');
            assertTrue(eq > 0, "not a property: " + line);
            properties.put(line.substring(0, eq), line.substring(eq + 1));
        }
        assertEquals(List.of("native.build.jobs", "native.build.jobs.why"), List.copyOf(properties.keySet()));
        return properties;
    }

    private static List<String> run(String input, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (var in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "still running: " + String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + out);
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
}
