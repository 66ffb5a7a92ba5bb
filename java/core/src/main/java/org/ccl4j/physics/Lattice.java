package org.ccl4j.physics;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Objects;

import org.ccl4j.Ccl4jException;
import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.internal.Failures;

/**
 * A nearest-neighbour lattice built natively as a CSR graph whose arcs carry the index of their
 * bond (an undirected edge, stored as two arcs; indices dense from 0). For bond percolation
 * ({@link BondPercolation}) and Swendsen-Wang ({@link SwendsenWang}).
 *
 * <pre>{@code
 * try (Lattice lattice = Lattice.create(LatticeKind.HONEYCOMB, 512, false, 0);
 *      BondPercolation run = BondPercolation.create(lattice, Backend.AUTO, Algorithm.KOMURA)) {
 *     BondPercolation.Result r = run.run(0.6527, 1, 0, 1000);
 *     System.out.println(r.probability() + " +- " + r.error());
 * }
 * }</pre>
 */
public final class Lattice implements AutoCloseable {
    /** The API's exceptions for the engines' failures. */
    static final Failures FAILURES = (status, message) -> Ccl4jException.of(Ccl4jException.Status.valueOf(status),
            message);

    private final Physics.Lattice lattice;
    private final LatticeKind kind;
    private final Physics.Shape shape;

    private Lattice(Physics.Lattice lattice, LatticeKind kind) {
        this.lattice = lattice;
        this.kind = kind;
        this.shape = lattice.shape();
    }

    /**
     * Builds a lattice with {@code length} sites per side (shells for the Bethe lattice), open or
     * periodic; {@code seed} numbers the sites of {@link LatticeKind#BETHE_RANDOM}.
     *
     * @param kind the kind of lattice
     * @param length the sites per side, or the shells of a Bethe lattice
     * @param periodic whether the boundaries are periodic
     * @param seed the seed of the random numbering of {@link LatticeKind#BETHE_RANDOM} (ignored by the
     *             others)
     * @return the lattice; close it to free its arrays
     * @throws IllegalArgumentException for a size the kind does not allow
     */
    public static Lattice create(LatticeKind kind, int length, boolean periodic, long seed) {
        Objects.requireNonNull(kind, "kind");
        return new Lattice(Engines.lattice(kind.nativeCode(), length, periodic, seed, FAILURES), kind);
    }

    /**
     * The lattice of this kind whose site count is nearest to {@code sites}.
     *
     * @param kind the kind of lattice
     * @param sites the number of sites wanted
     * @param periodic whether the boundaries are periodic
     * @param seed the seed of the random numbering of {@link LatticeKind#BETHE_RANDOM} (ignored by the
     *             others)
     * @return the lattice; close it to free its arrays
     */
    public static Lattice withSites(LatticeKind kind, long sites, boolean periodic, long seed) {
        return create(kind, kind.lengthFor(sites), periodic, seed);
    }

    /**
     * The kind of lattice.
     *
     * @return the kind
     */
    public LatticeKind kind() {
        return kind;
    }

    /**
     * Sites per side, or shells of the Bethe lattice.
     *
     * @return the length
     */
    public int length() {
        return shape.length();
    }

    /**
     * Whether the boundaries are periodic (else open).
     *
     * @return whether the boundaries are periodic
     */
    public boolean periodic() {
        return shape.periodic();
    }

    /**
     * The number of sites: the vertices of the CSR graph.
     *
     * @return the site count
     */
    public int siteCount() {
        return shape.siteCount();
    }

    /**
     * The number of arcs of the CSR graph, twice the bonds.
     *
     * @return the arc count
     */
    public long arcCount() {
        return shape.arcCount();
    }

    /**
     * The number of bonds (undirected edges), indexed from 0.
     *
     * @return the bond count
     */
    public long bondCount() {
        return shape.bondCount();
    }

    /**
     * The number of sites on open boundary {@code side} (0 or 1): the first and last row (2D) or
     * plane along z (3D), the centre and the surface shell (Bethe); 0 when periodic.
     *
     * @param side 0 or 1
     * @return the number of sites on that side
     */
    public int sideCount(int side) {
        return switch (side) {
            case 0 -> shape.side0Count();
            case 1 -> shape.side1Count();
            default -> throw new IndexOutOfBoundsException("side " + side + " is not 0 or 1");
        };
    }

    /**
     * The CSR offsets, {@code siteCount() + 1} entries.
     *
     * @return a copy of the offsets
     */
    public int[] offsets() {
        return copy(siteCount() + 1L, 0);
    }

    /**
     * The neighbour of each arc.
     *
     * @return a copy of the neighbours
     */
    public int[] neighbors() {
        return copy(arcCount(), 1);
    }

    /**
     * The bond index of each arc.
     *
     * @return a copy of the arcs' bond indices
     */
    public int[] arcBonds() {
        return copy(arcCount(), 2);
    }

    /**
     * The sites of open boundary {@code side} (0 or 1), ascending.
     *
     * @param side 0 or 1
     * @return the site ids on that side
     */
    public int[] side(int side) {
        return copy(sideCount(side), 3 + side);
    }

    private int[] copy(long count, int which) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment buffer = call.allocate(ValueLayout.JAVA_INT, Math.max(1, count));
            lattice.copy(which, buffer);
            return buffer.asSlice(0, count * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
        }
    }

    /** The engines' lattice, for the simulations built on it. */
    Physics.Lattice engineLattice() {
        return lattice;
    }

    /** Frees the lattice; waits for a simulation being built on it. */
    @Override
    public void close() {
        lattice.close();
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " length " + length() + (periodic() ? " periodic" : " open")
                + ", " + siteCount() + " sites, " + bondCount() + " bonds";
    }
}
