package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;

/**
 * The simulations of the API's {@code org.ccl4j.physics} package as an engine runs them. Each object
 * holds native state of its own; its calls are serialised with its {@code close}, so that closing
 * it from another thread waits for a running call instead of freeing memory under it.
 */
public final class Physics {
    private Physics() {
    }

    /** A lattice built natively as a CSR graph whose arcs carry their bond's index. */
    public interface Lattice extends AutoCloseable {
        Shape shape();

        /** Copies one array into {@code target}: 0 offsets, 1 neighbours, 2 arc bonds, 3 and 4 the sides. */
        void copy(int which, MemorySegment target);

        @Override
        void close();
    }

    /** A lattice's extents: sites per side (shells of a Bethe lattice), the CSR's size, the open sides' sites. */
    public record Shape(int length, boolean periodic, int siteCount, long arcCount, long bondCount, int side0Count,
                        int side1Count) {
    }

    /** Bond percolation on a lattice, its buffers reused by every realisation. */
    public interface Percolation extends AutoCloseable {
        /** Realisations {@code first ..}, filling {@code spanning} (count bytes) and {@code labels} (ints) unless NULL. */
        Outcome run(double p, long seed, long first, int count, MemorySegment spanning, MemorySegment labels);

        @Override
        void close();
    }

    /** Realisations run, those that span, the whole time and the labelling's. */
    public record Outcome(long realisations, long spanning, double totalMs, double labelMs) {
    }

    /** Swendsen-Wang updates of the Ising model on a lattice. */
    public interface Ising extends AutoCloseable {
        /** Runs {@code sweeps} sweeps, filling {@code magnetisation} and {@code energy} (doubles); returns their time. */
        double sweep(double temperature, int sweeps, MemorySegment magnetisation, MemorySegment energy);

        @Override
        void close();
    }

    /** The Cahn-Hilliard equation's parameters; kernel 0 automatic, 1 global, 2 shared; 0 doubles for defaults. */
    public record FieldParameters(int width, int height, int depth, boolean periodic, int kernel, double dt,
                                  double mobility, double gradient, double spacing, int cpuThreads) {
    }

    /** The domains of one labelling of a field. */
    public record Domains(long count, long foreground, long largest, double meanSize, double totalMs) {
    }

    /** A Cahn-Hilliard field on the engine's backend. */
    public interface CahnHilliard extends AutoCloseable {
        /** The parameters as resolved (defaults filled in, the kernel chosen on CUDA). */
        FieldParameters parameters();

        long steps();

        void init(double concentration, double noise, long seed);

        void setField(MemorySegment values);

        double step(long steps);

        void copyField(MemorySegment values);

        void threshold(double threshold, MemorySegment cells);

        /** Labels the domains above {@code threshold}; {@code settings} null for the field's defaults, labels NULL for none. */
        Domains label(double threshold, MeshSettings settings, MemorySegment labels);

        @Override
        void close();
    }
}
