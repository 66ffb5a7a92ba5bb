package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.ccl4j.engine.nativelib.NativeLibrary;
import org.ccl4j.internal.ffi.ccl4j_h;

/**
 * One version for the jars and the native library (README, "Versions"): the Maven project version,
 * which surefire passes as {@code ccl4j.expectedVersion}, is MAJOR.MINOR.PATCH with or without
 * -SNAPSHOT, and MAJOR.MINOR.PATCH is CCL4J_VERSION_MAJOR/MINOR/PATCH of the C ABI's header, of the
 * jextract bindings generated from it, and of the libccl4j.so that is loaded. (The CMake build checks
 * the header against the Maven version too, before it compiles anything.)
 */
class VersionTest {
    private static final Pattern MAVEN_VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(-SNAPSHOT)?");
    private static final Path HEADER = Path.of("native/include/ccl4j/common.h");

    /** MAJOR.MINOR.PATCH of the Maven project version. */
    private static String mavenVersion() {
        String version = System.getProperty("ccl4j.expectedVersion");
        assertNotNull(version, "surefire passes the Maven project version as ccl4j.expectedVersion");
        Matcher m = MAVEN_VERSION.matcher(version);
        assertTrue(m.matches(), "the Maven project version " + version + " is not MAJOR.MINOR.PATCH[-SNAPSHOT]");
        return m.group(1) + "." + m.group(2) + "." + m.group(3);
    }

    private static int define(String header, String name) {
        Matcher m = Pattern.compile("(?m)^#define " + name + " +(\\d+) *$").matcher(header);
        assertTrue(m.find(), HEADER + " has no #define " + name + " NUMBER");
        return Integer.parseInt(m.group(1));
    }

    @Test
    void theHeaderAndTheBindingsHaveTheMavenVersion() throws IOException {
        String expected = mavenVersion();
        String header = Files.readString(HEADER);
        List<Integer> defines = List.of(define(header, "CCL4J_VERSION_MAJOR"), define(header, "CCL4J_VERSION_MINOR"),
                define(header, "CCL4J_VERSION_PATCH"));
        assertEquals(expected, defines.get(0) + "." + defines.get(1) + "." + defines.get(2),
                "CCL4J_VERSION_MAJOR/MINOR/PATCH of " + HEADER + " are not the Maven project version (without"
                        + " -SNAPSHOT): change both together");
        assertEquals(defines, List.of(ccl4j_h.CCL4J_VERSION_MAJOR(), ccl4j_h.CCL4J_VERSION_MINOR(),
                ccl4j_h.CCL4J_VERSION_PATCH()), "the bindings' version constants are not the header's:"
                        + " run bindings/jextract.sh");
    }

    @Test
    void theLoadedLibraryHasTheMavenVersion() {
        assumeTrue(NativeLibrary.load(), () -> "no native library: " + NativeLibrary.loadError());
        assertEquals(mavenVersion(), ComponentLabeler.capabilities().version(),
                "the version of the libccl4j.so loaded from " + NativeLibrary.loadedFrom());
    }
}
