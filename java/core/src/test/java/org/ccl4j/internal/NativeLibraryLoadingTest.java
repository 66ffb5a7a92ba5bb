package org.ccl4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.testing.ForkedJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a JVM finds the native library, each case in a JVM of its own: the jar's copy is extracted
 * once into the cache directory, by two JVMs started at once as well, leaving nothing in the
 * temporary directory; with the library turned off or broken, {@code create()} labels on the Java
 * backend with one warning while a native backend asked for by name throws, saying why.
 */
class NativeLibraryLoadingTest {
    private static final String WARNING = "ccl4j labels on the JAVA backend";

    @Test
    void twoJvmsAtOnceShareOneExtractedCopyAndLeaveNothingInTmp(@TempDir Path dir) throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        // no library path: the library comes out of the jar (the test classes' resources)
        List<String> options = List.of("-Djava.library.path=", "-Dccl4j.cache.dir=" + cache,
                "-Djava.io.tmpdir=" + tmp);
        ForkedJvm.Started first = ForkedJvm.start(dir, Probe.class, options, List.of(Backend.CPU_SERIAL.name()));
        ForkedJvm.Started second = ForkedJvm.start(dir, Probe.class, options, List.of(Backend.CPU_SERIAL.name()));
        for (ForkedJvm.Started jvm : List.of(first, second)) {
            ForkedJvm.Result r = jvm.await(2, TimeUnit.MINUTES);
            assertEquals(0, r.exitCode(), r.describe());
            assertTrue(r.output().contains("CPU_SERIAL 2 components"), r.describe());
            assertTrue(r.output().contains("loaded from " + cache), r.describe());
        }
        ForkedJvm.Result third = ForkedJvm.run(dir, Probe.class, options, List.of(Backend.CPU_SERIAL.name()), 2,
                TimeUnit.MINUTES);
        assertEquals(0, third.exitCode(), third.describe());
        try (Stream<Path> files = Files.walk(cache)) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            assertEquals(1, all.size(), "one library in the cache: " + all);
            assertEquals(System.mapLibraryName("ccl4j"), all.get(0).getFileName().toString());
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "nothing left in the temporary directory");
        }
    }

    @Test
    void turnedOffTheDefaultLabelerRunsInJavaAndWarnsOnce(@TempDir Path dir) throws Exception {
        ForkedJvm.Result r = ForkedJvm.run(dir, Probe.class, List.of("-Dccl4j.native=false"),
                List.of(Backend.AUTO.name(), Backend.AUTO.name(), Backend.CPU_PARALLEL.name()), 2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("JAVA 2 components"), r.describe());
        assertEquals(1, r.output().split(WARNING, -1).length - 1, "one warning: " + r.describe());
        assertTrue(r.output().contains("CPU_PARALLEL unavailable: the ccl4j native library is turned off"),
                r.describe());
    }

    @Test
    void aBrokenLibraryIsReportedAndTheDefaultLabelerRunsInJava(@TempDir Path dir) throws Exception {
        Path broken = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(broken.resolve(System.mapLibraryName("ccl4j")), "not a shared library");
        ForkedJvm.Result r = ForkedJvm.run(dir, Probe.class, List.of("-Djava.library.path=" + broken),
                List.of(Backend.AUTO.name(), Backend.CPU_SERIAL.name()), 2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("JAVA 2 components"), r.describe());
        assertTrue(r.output().contains(WARNING), r.describe());
        assertTrue(r.output().contains("CPU_SERIAL unavailable: cannot load the ccl4j native library "
                + broken.resolve(System.mapLibraryName("ccl4j"))), r.describe());
    }

    /**
     * The forked program: for each backend named in {@code args}, creates a labeler and labels a
     * graph of two components, printing "BACKEND N components" (the backend it got) or "BACKEND
     * unavailable: REASON"; then where the library was loaded from.
     */
    public static final class Probe {
        public static void main(String[] args) throws IOException {
            for (String name : args) {
                Backend backend = Backend.valueOf(name);
                try (Arena arena = Arena.ofConfined();
                     ComponentLabeler labeler = backend == Backend.AUTO ? ComponentLabeler.create()
                             : ComponentLabeler.create(backend)) {
                    CsrGraph graph = CsrGraph.fromEdges(arena, 4, new int[] {0, 2}, new int[] {1, 3});
                    System.out.println(labeler.backend() + " " + labeler.label(graph).count() + " components");
                } catch (BackendUnavailableException e) {
                    System.out.println(name + " unavailable: " + e.getMessage());
                }
            }
            System.out.println("loaded from " + NativeLibrary.loadedFrom());
        }
    }
}
