package org.ccl4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other tests run on the class path; this one runs a small program in another JVM with the
 * library as the named module org.ccl4j on the module path, so that NativeLibrary extracts
 * libccl4j.so from the module's own resources and the generated bindings, which look their
 * symbols up among the libraries of their class loader (jextract's SymbolLookup.loaderLookup()),
 * find it there too.
 */
class ModulePathTest {
    private static final Path MODULE = Path.of("java/core/target/classes");

    @Test
    void labelsAGraphWithTheLibraryOnTheModulePath(@TempDir Path dir) throws Exception {
        assertTrue(Files.exists(MODULE.resolve("module-info.class")), "no compiled module at " + MODULE);
        Path main = dir.resolve("Main.java");
        Files.writeString(main, """
                import java.lang.foreign.Arena;
                import java.util.Arrays;
                import org.ccl4j.Backend;
                import org.ccl4j.ComponentLabeler;
                import org.ccl4j.CsrGraph;

                public class Main {
                    public static void main(String[] args) {
                        if (!ComponentLabeler.class.getModule().isNamed()) {
                            throw new AssertionError("org.ccl4j is not a named module here");
                        }
                        try (Arena arena = Arena.ofConfined();
                             ComponentLabeler labeler = ComponentLabeler.create(Backend.CPU_SERIAL)) {
                            CsrGraph graph = CsrGraph.fromEdges(arena, 5, new int[] {0, 3}, new int[] {1, 4});
                            System.out.println("labels " + Arrays.toString(labeler.label(graph).toArray()));
                        }
                    }
                }
                """);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = dir.resolve("out.txt");
        Process p = new ProcessBuilder(java.toString(), "--module-path", MODULE.toString(), "--add-modules", "org.ccl4j",
                "--enable-native-access=org.ccl4j", "-Djava.library.path=" + dir, main.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the program did not finish in 2 minutes");
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("labels [0, 0, 2, 3, 3]"), out);
    }
}
