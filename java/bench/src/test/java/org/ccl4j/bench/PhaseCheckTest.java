package org.ccl4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.ccl4j.testing.ForkedJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PhaseCheck} in a JVM of its own, where the per-phase runs are the first code to reach the
 * native library: the algorithm's id is looked up in the native registry before any labeller has
 * loaded the library, which must load it then rather than find no symbol.
 */
class PhaseCheckTest {
    @TempDir
    Path dir;

    @Test
    void checksThePhasesWhenItIsTheFirstToReachTheNativeLibrary() throws Exception {
        ForkedJvm.Result r = ForkedJvm.run(dir, PhaseCheck.class, List.of(),
                List.of("cpu-parallel", "ecl-cc,afforest", "test-graphs/random.egr"), 2, TimeUnit.MINUTES);
        assertEquals(0, r.exitCode(), r.describe());
        for (String algorithm : List.of("ecl-cc", "afforest")) {
            assertTrue(r.output().lines().anyMatch(line -> line.startsWith("ok ") && line.contains(algorithm)),
                    algorithm + ": " + r.describe());
        }
    }
}
