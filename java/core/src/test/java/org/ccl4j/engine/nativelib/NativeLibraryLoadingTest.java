package org.ccl4j.engine.nativelib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.EdgeList;
import org.ccl4j.testing.ForkedJvm;

/**
 * How a JVM finds the native library, each case in a JVM of its own: the jar's copy is extracted
 * once into the cache directory, by JVMs started at once as well, leaving nothing in the temporary
 * directory; a library on {@code java.library.path} is used only when its version is the jar's;
 * with the library turned off or broken, {@code create()} labels on the Java backend with one
 * warning while a native backend asked for by name throws, saying why.
 */
class NativeLibraryLoadingTest {
    private static final String WARNING = "ccl4j labels on the JAVA backend";
    private static final String LIBRARY = System.mapLibraryName("ccl4j");

    @Test
    void aHundredJvmsFourAtATimeShareOneExtractedCopyAndLeaveNothingInTmp(@TempDir Path dir) throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        // no library path: the library comes out of the jar (the test classes' resources)
        List<String> options = List.of("-Djava.library.path=", "-Dccl4j.cache.dir=" + cache,
                "-Djava.io.tmpdir=" + tmp);
        for (int wave = 0; wave < 25; wave++) {
            List<ForkedJvm.Started> started = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                started.add(ForkedJvm.start(dir, Probe.class, options, List.of(Backend.CPU_SERIAL.name())));
            }
            for (ForkedJvm.Started jvm : started) {
                ForkedJvm.Result r = jvm.await(2, TimeUnit.MINUTES);
                assertEquals(0, r.exitCode(), r.describe());
                assertTrue(r.output().contains("CPU_SERIAL 2 components"), r.describe());
                assertTrue(r.output().contains("loaded from " + cache), r.describe());
                Files.delete(jvm.log());
            }
        }
        try (Stream<Path> files = Files.walk(cache)) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            assertEquals(1, all.size(), "one library in the cache: " + all);
            assertEquals(LIBRARY, all.get(0).getFileName().toString());
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "nothing left in the temporary directory");
        }
    }

    @Test
    void aLibraryOfTheJarsVersionOnTheLibraryPathIsUsed(@TempDir Path dir) throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.write(lib.resolve(LIBRARY), jarLibrary());
        ForkedJvm.Result r = ForkedJvm.run(dir, Probe.class, List.of("-Djava.library.path=" + lib,
                "-Dccl4j.cache.dir=" + dir.resolve("cache")), List.of(Backend.CPU_SERIAL.name()), 2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("CPU_SERIAL 2 components"), r.describe());
        assertTrue(r.output().contains("loaded from " + lib.resolve(LIBRARY) + " (java.library.path)"), r.describe());
        assertFalse(Files.exists(dir.resolve("cache")), "nothing extracted: " + r.describe());
    }

    @Test
    void aLibraryOfAnotherVersionOnTheLibraryPathIsPassedOverWithAWarning(@TempDir Path dir) throws Exception {
        // the jar's library with its version string changed from 0.1.0 to 9.1.0
        String version = NativeLibrary.expectedVersion();
        String other = "9" + version.substring(1);
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.write(lib.resolve(LIBRARY), replace(jarLibrary(), (version + "\0").getBytes(StandardCharsets.US_ASCII),
                (other + "\0").getBytes(StandardCharsets.US_ASCII)));
        Path cache = dir.resolve("cache");
        ForkedJvm.Result r = ForkedJvm.run(dir, Probe.class, List.of("-Djava.library.path=" + lib,
                "-Dccl4j.cache.dir=" + cache), List.of(Backend.CPU_SERIAL.name()), 2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("CPU_SERIAL 2 components"), r.describe());
        String why = lib.resolve(LIBRARY) + " on java.library.path was passed over: version " + other
                + ", this jar needs version " + version;
        assertTrue(r.output().contains("WARNING: ccl4j: " + why), "a warning: " + r.describe());
        assertTrue(r.output().contains("loaded from " + cache), r.describe());
        assertTrue(r.output().contains(why + ")"), "the origin says why: " + r.describe());
    }

    @Test
    void aBrokenLibraryOnTheLibraryPathIsPassedOver(@TempDir Path dir) throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve(LIBRARY), "not a shared library");
        ForkedJvm.Result r = ForkedJvm.run(dir, Probe.class, List.of("-Djava.library.path=" + lib,
                "-Dccl4j.cache.dir=" + dir.resolve("cache")), List.of(Backend.CPU_SERIAL.name()), 2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("CPU_SERIAL 2 components"), r.describe());
        assertTrue(r.output().contains(lib.resolve(LIBRARY) + " on java.library.path was passed over: (it cannot be"
                + " opened"), r.describe());
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
        // edge lists without the library: the Java union-find, and GraphBuilder for the graph and its checks
        assertTrue(r.output().contains("JAVA edges: 2 components, a graph of 4 arcs; edge 1 (3, 4): id 4 is outside"
                + " [0, 4)"), r.describe());
    }

    @Test
    void aBrokenCopyInTheCacheIsReportedAndTheDefaultLabelerRunsInJava(@TempDir Path dir) throws Exception {
        // a file of the library's size where the jar's copy would be extracted, so it is loaded as is
        byte[] library = jarLibrary();
        Path cache = dir.resolve("cache");
        Path broken = Files.createDirectories(cache.resolve(HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(library)).substring(0, 32))).resolve(LIBRARY);
        Files.write(broken, new byte[library.length]);
        ForkedJvm.Result r = ForkedJvm.run(dir, Probe.class, List.of("-Djava.library.path=",
                "-Dccl4j.cache.dir=" + cache), List.of(Backend.AUTO.name(), Backend.CPU_SERIAL.name()), 2,
                TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.output().contains("JAVA 2 components"), r.describe());
        assertEquals(1, r.output().split(WARNING, -1).length - 1, "one warning: " + r.describe());
        assertTrue(r.output().contains("CPU_SERIAL unavailable: cannot load the ccl4j native library " + broken),
                r.describe());
    }

    private static byte[] jarLibrary() throws IOException {
        try (InputStream in = NativeLibrary.class.getResourceAsStream("/org/ccl4j/native/linux-x86_64/" + LIBRARY)) {
            assertNotNull(in, "the library is among the resources");
            return in.readAllBytes();
        }
    }

    private static byte[] replace(byte[] data, byte[] from, byte[] to) {
        byte[] out = data.clone();
        int found = 0;
        for (int i = 0; i + from.length <= out.length; i++) {
            if (Arrays.equals(out, i, i + from.length, from, 0, from.length)) {
                System.arraycopy(to, 0, out, i, to.length);
                found++;
            }
        }
        assertTrue(found > 0, "the version string is in the library");
        return out;
    }

    /**
     * The forked program: for each backend named in {@code args}, creates a labeler and labels a
     * graph of two components, printing "BACKEND N components" (the backend it got) or "BACKEND
     * unavailable: REASON", and the same edges as an edge list, with the graph built from them and
     * the refusal of an id out of range; then where the library was loaded from, and its origin.
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
                    EdgeList edges = EdgeList.fromPairs(arena, 4, new int[] {0, 1, 2, 3});
                    String refusal;
                    try {
                        CsrGraph.fromEdges(arena, EdgeList.fromPairs(arena, 4, new int[] {0, 1, 3, 4}));
                        refusal = "no refusal";
                    } catch (IllegalArgumentException e) {
                        refusal = e.getMessage();
                    }
                    System.out.println(labeler.backend() + " edges: " + labeler.label(edges).count()
                            + " components, a graph of " + CsrGraph.fromEdges(arena, edges).arcCount() + " arcs; "
                            + refusal);
                } catch (BackendUnavailableException e) {
                    System.out.println(name + " unavailable: " + e.getMessage());
                }
            }
            System.out.println("loaded from " + NativeLibrary.loadedFrom() + " (" + NativeLibrary.origin() + ")");
        }
    }
}
