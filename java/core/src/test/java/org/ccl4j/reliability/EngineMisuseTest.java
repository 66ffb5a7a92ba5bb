package org.ccl4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.Ccl4jException;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Grid;
import org.ccl4j.Intensity;
import org.ccl4j.Labels;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshOptions;
import org.ccl4j.MeshStatistics;
import org.ccl4j.Numbering;
import org.ccl4j.StatisticsOptions;
import org.ccl4j.physics.BondPercolation;
import org.ccl4j.physics.CahnHilliard;
import org.ccl4j.physics.Lattice;
import org.ccl4j.physics.LatticeKind;
import org.ccl4j.physics.SwendsenWang;
import org.ccl4j.testing.ForkedJvm;
import org.ccl4j.testing.Misuses;

/**
 * Misuses that once crashed the JVM, had it killed or answered wrongly, on the engines: memory freed
 * under the JAVA backend, physics objects closed by another thread during a call, allocations
 * larger than the memory there is, labels changed by another thread during their book-keeping,
 * closed labelers, and statistics tables nobody closed. Each scenario runs in a JVM of its own on
 * every backend there (CUDA with a device), so that a crash fails the scenario instead of ending
 * the test run; the test asserts that the JVM survived and every misuse ended in the exception it
 * should, or the right answer.
 */
class EngineMisuseTest {
    /** The address space of the JVMs of the memory scenarios: less than any of their allocations needs. */
    private static final long LIMIT = 6L << 30;

    @ParameterizedTest
    @ValueSource(strings = {"freedMemoryOnEveryBackend", "physicsClosedDuringACall", "closedLabelers",
            "labelsChangedDuringBookkeeping"})
    void theJvmSurvivesAndTheMisuseIsRefused(String scenario, @TempDir Path dir) throws Exception {
        assertSurvived(scenario, ForkedJvm.run(dir, Scenarios.class, List.of("-Xmx512m"), List.of(scenario), 3,
                TimeUnit.MINUTES));
    }

    /** Allocations beyond the memory there is fail with OUT_OF_MEMORY, under a 6 GB address space and without. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void allocationsBeyondTheMemoryFailWithAnException(boolean limited, @TempDir Path dir) throws Exception {
        ForkedJvm.Result r = ForkedJvm.start(dir, Scenarios.class, List.of("-Xmx512m"), List.of("memoryBombs"),
                limited ? LIMIT : 0).await(3, TimeUnit.MINUTES);
        assertSurvived("memoryBombs", r);
    }

    /** 2,000 statistics tables left unclosed are freed by the garbage collector. */
    @Test
    void forgottenTablesAreFreed(@TempDir Path dir) throws Exception {
        ForkedJvm.Result r = ForkedJvm.run(dir, ForgottenTables.class, List.of("-Xmx128m"), List.of(), 3,
                TimeUnit.MINUTES);
        System.out.print(r.output());
        assertTrue(r.finished(), r.describe());
        assertEquals(0, r.exitCode(), r.describe());
    }

    private static void assertSurvived(String scenario, ForkedJvm.Result r) {
        System.out.print(r.output());
        assertTrue(r.finished(), scenario + " did not finish: " + r.describe());
        assertEquals(0, r.exitCode(), scenario + ": " + r.describe());
        assertTrue(r.output().contains("survived " + scenario + " on JAVA"), r.describe());
    }

    /**
     * The forked program: runs scenario {@code args[0]} on every backend, printing each refusal and
     * "survived SCENARIO on BACKEND"; exits 1 when a misuse was not refused as it should be.
     */
    public static final class Scenarios {
        public static void main(String[] args) throws Exception {
            String scenario = args[0];
            for (Backend backend : Misuses.backends()) {
                switch (scenario) {
                    case "freedMemoryOnEveryBackend" -> freedMemory(backend);
                    case "physicsClosedDuringACall" -> physicsClosedDuringACall(backend);
                    case "closedLabelers" -> closedLabelers(backend);
                    case "labelsChangedDuringBookkeeping" -> labelsChangedDuringBookkeeping(backend);
                    case "memoryBombs" -> memoryBombs(backend);
                    default -> throw new IllegalArgumentException("no scenario " + scenario);
                }
                System.out.println("survived " + scenario + " on " + backend);
            }
            Misuses.exit();
        }

        /** A 64x64 field of 0s and 1s: a third of the cells set. */
        private static Grid field(Arena arena) {
            Random random = new Random(7);
            byte[] cells = new byte[64 * 64];
            for (int i = 0; i < cells.length; i++) {
                cells[i] = (byte) (random.nextInt(3) == 0 ? 1 : 0);
            }
            return Grid.ofBytes(arena, cells, 64, 64);
        }

        /** The grid's, the output's and the intensity's memory freed before labelling with statistics. */
        private static void freedMemory(Backend backend) {
            StatisticsOptions raster = StatisticsOptions.defaults();
            try (ComponentLabeler labeler = ComponentLabeler.create(backend); Arena live = Arena.ofConfined()) {
                Arena gone = Arena.ofConfined();
                Grid freedGrid = field(gone);
                Grid grid = field(live);
                Intensity freedValues = Intensity.of(field(gone));
                gone.close();
                Misuses.expect(IllegalStateException.class, backend + ": statistics of a freed grid",
                        () -> labeler.labelWithStatistics(freedGrid, MeshOptions.defaults(), raster).close());
                Misuses.expect(IllegalStateException.class, backend + ": statistics into a closed arena",
                        () -> labeler.labelWithStatistics(grid, MeshOptions.defaults(), raster, gone));
                Misuses.expect(IllegalStateException.class, backend + ": statistics of freed intensities",
                        () -> labeler.labelWithStatistics(grid, MeshOptions.defaults(),
                                raster.withIntensity(freedValues)).close());
                Misuses.expect(IllegalStateException.class, backend + ": labels of a freed grid",
                        () -> labeler.label(freedGrid, MeshOptions.defaults().withAlgorithm(MeshAlgorithm.JAVA)));
                try (MeshStatistics table = labeler.labelWithStatistics(grid, MeshOptions.defaults(), raster)) {
                    Misuses.check(table.count() == labeler.label(grid).count(), backend + ": the right table afterwards");
                }
            }
        }

        /**
         * Each physics object closed by another thread while a call runs, twenty times: the call
         * finishes or is refused, the close waits for it, nothing crashes.
         */
        private static void physicsClosedDuringACall(Backend backend) throws InterruptedException {
            if (backend == Backend.JAVA) {
                Misuses.expect(UnsupportedOperationException.class, "Cahn-Hilliard on JAVA",
                        () -> CahnHilliard.create(8, 8, 1, CahnHilliard.Parameters.defaults(), Backend.JAVA));
                return;
            }
            for (int round = 0; round < 20; round++) {
                CahnHilliard field = CahnHilliard.create(128, 128, 1, CahnHilliard.Parameters.defaults(), backend);
                field.init(0, 0.1, round);
                race(backend + ": Cahn-Hilliard step", () -> field.step(200), field::close);
                try (Lattice lattice = Lattice.create(LatticeKind.SQUARE, 128, false, 0)) {
                    SwendsenWang chain = SwendsenWang.create(lattice, backend, Algorithm.AUTO, round);
                    race(backend + ": Swendsen-Wang sweep", () -> chain.sweep(2.2, 50), chain::close);
                    BondPercolation run = BondPercolation.create(lattice, backend, Algorithm.AUTO);
                    race(backend + ": percolation run", () -> run.run(0.5, 1, 0, 50), run::close);
                }
                Lattice lattice = Lattice.create(LatticeKind.SQUARE, 256, false, 0);
                race(backend + ": percolation set up on a lattice", () -> BondPercolation.create(lattice, backend,
                        Algorithm.AUTO).close(), lattice::close);
            }
        }

        /**
         * Runs {@code call} on another thread and {@code close} here once it has started: the call
         * must finish or throw IllegalStateException, and a later call must throw it.
         */
        private static void race(String what, Runnable call, Runnable close) throws InterruptedException {
            CountDownLatch started = new CountDownLatch(1);
            List<Throwable> thrown = new ArrayList<>();
            Thread worker = new Thread(() -> {
                started.countDown();
                try {
                    call.run();
                } catch (IllegalStateException e) {
                    // closed before it ran: refused
                } catch (Throwable t) {
                    synchronized (thrown) {
                        thrown.add(t);
                    }
                }
            });
            worker.start();
            started.await();
            close.run();
            worker.join();
            thrown.forEach(t -> Misuses.check(false, what + " closed during the call: " + t));
            Misuses.expect(IllegalStateException.class, what + " after close", call);
        }

        /** A closed labeler refuses every call, on every algorithm, the Java ones included. */
        private static void closedLabelers(Backend backend) {
            try (Arena arena = Arena.ofConfined()) {
                Grid grid = field(arena);
                ComponentLabeler labeler = ComponentLabeler.create(backend);
                labeler.close();
                MeshOptions java = MeshOptions.defaults().withAlgorithm(MeshAlgorithm.JAVA);
                Misuses.expect(IllegalStateException.class, backend + ": a closed labeler's labelling", () -> labeler.label(grid));
                Misuses.expect(IllegalStateException.class, backend + ": a closed labeler's JAVA mesh algorithm",
                        () -> labeler.label(grid, java));
                Misuses.expect(IllegalStateException.class, backend + ": a closed labeler's statistics",
                        () -> labeler.labelWithStatistics(grid, java, StatisticsOptions.defaults()));
                Misuses.expect(IllegalStateException.class, backend + ": a closed labeler's union-find",
                        () -> labeler.labelEdges(3, new int[] {0}, new int[] {1},
                                org.ccl4j.LabelOptions.defaults().withAlgorithm(Algorithm.UNION_FIND)));
                Misuses.expect(IllegalStateException.class, backend + ": a closed labeler's memory needs",
                        () -> labeler.memoryNeeds(grid, java));
            }
        }

        /**
         * Labels whose entries another thread sets to values out of range during their
         * book-keeping: each call answers or throws IllegalArgumentException, never corrupts memory.
         */
        private static void labelsChangedDuringBookkeeping(Backend backend) throws InterruptedException {
            int n = 1 << 20;
            try (ComponentLabeler labeler = ComponentLabeler.create(backend); Arena shared = Arena.ofShared()) {
                MemorySegment labels = shared.allocate(ValueLayout.JAVA_INT, n);
                Labels view = Labels.of(labels, n).using(labeler);
                List<Consumer<Labels>> calls = List.of(Labels::summary, l -> l.compact(Labels.Order.SIZE_DESCENDING),
                        Labels::members, l -> l.filter(2, 100), l -> l.histogram(), l -> l.componentMembers(0));
                for (Consumer<Labels> call : calls) {
                    for (int round = 0; round < 5; round++) {
                        for (int i = 0; i < n; i++) {
                            labels.setAtIndex(ValueLayout.JAVA_INT, i, i & ~7);  // components of 8
                        }
                        Thread writer = new Thread(() -> {
                            for (int i = n - 1; i >= 0; i -= 61) {
                                labels.setAtIndex(ValueLayout.JAVA_INT, i, Integer.MAX_VALUE - i);
                            }
                        });
                        writer.start();
                        try {
                            call.accept(view);
                        } catch (IllegalArgumentException e) {
                            // the change was seen: refused
                        }
                        writer.join();
                    }
                }
            }
        }

        /** Allocations of more memory than there is: each fails with an exception before it is made. */
        private static void memoryBombs(Backend backend) {
            if (backend == Backend.JAVA) {
                Misuses.expect(Ccl4jException.class, "1e12 cells of a grid", () -> {
                    try (Arena arena = Arena.ofConfined()) {
                        Grid.allocate(arena, Grid.CellType.U8, 100_000, 100_000, 100);
                    }
                });
                return;
            }
            // 25.8 GB of floats on the CPU backends (on CUDA the field lives in device memory): refused
            // where the host or the address space has less, made and freed where it has more
            if (backend != Backend.CUDA) {
                Runnable create = () -> CahnHilliard.create(46340, 46340, 1, CahnHilliard.Parameters.defaults(),
                        backend).close();
                if (hostAvailable() < 26_000_000_000L || limited()) {
                    Misuses.expect(Ccl4jException.class, backend + ": a 46340^2 Cahn-Hilliard field", create);
                } else {
                    create.run();
                }
            }
            try (Lattice lattice = Lattice.create(LatticeKind.SQUARE, 16, false, 0);
                 SwendsenWang chain = SwendsenWang.create(lattice, backend, Algorithm.AUTO, 1)) {
                Misuses.expect(IllegalArgumentException.class, backend + ": Integer.MAX_VALUE sweeps (16 GB of results)",
                        () -> chain.sweep(2.0, Integer.MAX_VALUE));
            }
        }

        /** MemAvailable of /proc/meminfo, in bytes. */
        private static long hostAvailable() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                    if (line.startsWith("MemAvailable:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return Long.MAX_VALUE;
        }

        /** Whether this process's address space is limited (ulimit -v). */
        private static boolean limited() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                    if (line.startsWith("Max address space")) {
                        return !line.contains("unlimited");
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return false;
        }
    }

    /**
     * The forked program of {@link #forgottenTablesAreFreed}: makes 2,000 statistics tables of a
     * 512x512 field (1 MB of labels each) and closes none; after a garbage collection the resident
     * memory must be back within twice what it was before them. Exits 1 otherwise.
     */
    public static final class ForgottenTables {
        public static void main(String[] args) throws Exception {
            try (ComponentLabeler labeler = ComponentLabeler.create(); Arena arena = Arena.ofConfined()) {
                Random random = new Random(3);
                byte[] cells = new byte[512 * 512];
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = (byte) (random.nextInt(2));
                }
                Grid grid = Grid.ofBytes(arena, cells, 512, 512);
                StatisticsOptions canonical = StatisticsOptions.defaults().withNumbering(Numbering.CANONICAL);
                labeler.labelWithStatistics(grid, MeshOptions.defaults(), canonical).close();  // warmed up
                collect();
                long before = residentBytes();
                long peak = 0;
                for (int t = 0; t < 2000; t++) {
                    MeshStatistics forgotten = labeler.labelWithStatistics(grid, MeshOptions.defaults(), canonical);
                    if (forgotten.count() == 0) {
                        throw new AssertionError("no components");
                    }
                    peak = Math.max(peak, residentBytes());
                }
                collect();
                long after = residentBytes();
                System.out.printf("resident: %d MB before, %d MB at the most, %d MB after a collection%n",
                        before >> 20, peak >> 20, after >> 20);
                System.exit(after <= 2 * before ? 0 : 1);
            }
        }

        /** Collections until the cleaner has run: the resident size stops falling. */
        private static void collect() throws InterruptedException {
            for (int i = 0; i < 5; i++) {
                System.gc();
                Thread.sleep(200);
            }
        }

        /** VmRSS of /proc/self/status. */
        private static long residentBytes() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
            throw new IllegalStateException("no VmRSS in /proc/self/status");
        }
    }
}
