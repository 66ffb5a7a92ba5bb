package org.ccl4j.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphReader;
import org.ccl4j.io.ReadOptions;
import org.ccl4j.io.internal.suite.BenchSuite;

/**
 * The graphs of the benchmarks' {@code graph} parameter, loaded once per JVM: a name of the
 * {@code ccl4j bench} suites ({@code grid2d_1024}, {@code rmat18}, ... quick; {@code grid2d_4096},
 * {@code rmat22}, ... full), generated in the JVM from ccl4j-io's table of them ({@link BenchSuite}),
 * as {@code ccl4j bench} does, when it is not cached yet, or a file under {@code test-graphs/} (any
 * format).
 *
 * <p>The cache directory is the system property {@code ccl4j.bench.graphs} or the environment
 * variable {@code CCL4J_BENCH_GRAPHS} (default {@code target/bench-graphs}, as {@code ccl4j bench}).
 * JMH's forked JVMs inherit the environment variable, not the property.
 */
final class BenchGraphs {
    /** Global, as the graphs live as long as the JVM: the JAVA backend reads it in place, as it does a confined arena of the caller's, but copies a shared one. */
    private static final Arena ARENA = Arena.global();
    private static final Map<String, CsrGraph> LOADED = new HashMap<>();

    private BenchGraphs() {
    }

    static synchronized CsrGraph get(String name) {
        return LOADED.computeIfAbsent(name, BenchGraphs::load);
    }

    private static CsrGraph load(String name) {
        try {
            Path file;
            GraphFormat format = GraphFormat.AUTO;
            if (name.startsWith("test-graphs/")) {
                file = Path.of(name);
            } else {
                file = cached(suiteGraph(name),
                        Path.of(setting("ccl4j.bench.graphs", "CCL4J_BENCH_GRAPHS", "target/bench-graphs")));
                format = GraphFormat.EGR;
            }
            if (!Files.exists(file)) {
                throw new IllegalArgumentException("graph file " + file + " not found");
            }
            return GraphReader.read(file, format, ReadOptions.defaults(), ARENA).graph();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load the benchmark graph " + name, e);
        }
    }

    private static String setting(String property, String variable, String fallback) {
        String value = System.getProperty(property, System.getenv(variable));
        return value != null ? value : fallback;
    }

    private static BenchSuite.Graph suiteGraph(String name) {
        return BenchSuite.graph(name).orElseThrow(() -> new IllegalArgumentException("unknown graph '" + name
                + "': use a suite graph " + BenchSuite.names() + " or a file test-graphs/NAME"));
    }

    /**
     * The cached file of {@code g} in {@code dir}, generated first when missing: written to a
     * temporary file there and then renamed, so that a fork stopped half way leaves no partial
     * {@code NAME.egr}, and JVMs generating the same graph at once (which write the same bytes)
     * each rename a complete file.
     */
    private static Path cached(BenchSuite.Graph g, Path dir) throws IOException {
        Path file = dir.resolve(g.fileName());
        if (!Files.exists(file)) {
            Files.createDirectories(dir);
            Path part = Files.createTempFile(dir, "." + g.fileName() + "-", ".part");
            try {
                g.generate().writeEgr(part);
                Files.move(part, file, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(part);
            }
        }
        return file;
    }

    /** True when a CUDA device can be used here. */
    static boolean cudaPresent() {
        return ComponentLabeler.capabilities().backends().contains(Backend.CUDA);
    }

    /** Fails a GPU benchmark's setup with the reason, when it runs without a device anyway. */
    static void requireCuda() {
        if (!cudaPresent()) {
            throw new IllegalStateException("SKIPPED: no CUDA device here; GPU benchmarks (classes Cuda*) need one");
        }
    }
}
