package org.ccl4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.ccl4j.io.internal.suite.BenchSuite;

/**
 * The graphs of {@code bench --suite}: the suites of ccl4j-io's table ({@link BenchSuite}),
 * generated in this JVM and cached as {@code .egr} files in {@code --dir}.
 */
final class BenchGraphFiles {
    private BenchGraphFiles() {
    }

    /**
     * The suite named {@code quick} or {@code full}.
     *
     * @throws UsageException for another name
     */
    static List<BenchSuite.Graph> suite(String name) {
        return switch (name) {
            case "quick" -> BenchSuite.QUICK;
            case "full" -> BenchSuite.FULL;
            default -> throw new UsageException("unknown suite '" + name + "'; expected quick or full");
        };
    }

    /**
     * Returns the cached file of {@code g} in {@code dir}, generating it first if needed: refused
     * before it starts when the graph does not fit in the heap. The file is written whole or not
     * at all ({@link OutputFile}); several processes may write the same suite graph at once, and as
     * they write the same bytes, the last move wins harmlessly.
     */
    static Path file(BenchSuite.Graph g, Path dir) throws IOException {
        Path file = dir.resolve(g.fileName());
        if (!Files.exists(file)) {
            HeapLimit.require(g.heapBytes(), "the bench graph " + g.name());
            OutputFile.createParents(file);
            OutputFile.write(file, g.generate()::writeEgr);
        }
        return file;
    }
}
