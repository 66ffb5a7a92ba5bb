package org.ccl4j.physics;

import org.ccl4j.internal.Abi;
import org.ccl4j.Backend;
import org.ccl4j.Algorithm;
import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.internal.ffi.ccl4j_lattice_info;

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
    private final MemorySegment handle;
    private final LatticeKind kind;
    private final int length;
    private final boolean periodic;
    private final int siteCount;
    private final long arcCount;
    private final long bondCount;
    private final int[] sideCounts;
    private boolean closed;

    private Lattice(MemorySegment handle, LatticeKind kind, MemorySegment info) {
        this.handle = handle;
        this.kind = kind;
        this.length = ccl4j_lattice_info.length(info);
        this.periodic = ccl4j_lattice_info.periodic(info) != 0;
        this.siteCount = ccl4j_lattice_info.vertex_count(info);
        this.arcCount = ccl4j_lattice_info.arc_count(info);
        this.bondCount = ccl4j_lattice_info.bond_count(info);
        this.sideCounts = new int[] {ccl4j_lattice_info.side0_count(info), ccl4j_lattice_info.side1_count(info)};
    }

    /**
     * Builds a lattice with {@code length} sites per side (shells for the Bethe lattice), open or
     * periodic; {@code seed} numbers the sites of {@link LatticeKind#BETHE_RANDOM}.
     *
     * @throws IllegalArgumentException for a size the kind does not allow
     */
    public static Lattice create(LatticeKind kind, int length, boolean periodic, long seed) {
        Objects.requireNonNull(kind, "kind");
        PhysicsCalls.requireLibrary();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            PhysicsCalls.check(ccl4j_lattice_create(kind.nativeCode(), length, periodic ? 1 : 0, seed, out),
                    MemorySegment.NULL);
            MemorySegment handle = Abi.pointer(out);
            MemorySegment info = ccl4j_lattice_info.allocate(call);
            PhysicsCalls.check(ccl4j_lattice_get_info(handle, info), MemorySegment.NULL);
            return new Lattice(handle, kind, info);
        }
    }

    /** The lattice of this kind whose site count is nearest to {@code sites}. */
    public static Lattice withSites(LatticeKind kind, long sites, boolean periodic, long seed) {
        return create(kind, kind.lengthFor(sites), periodic, seed);
    }

    /** The kind of lattice. */
    public LatticeKind kind() {
        return kind;
    }

    /** Sites per side, or shells of the Bethe lattice. */
    public int length() {
        return length;
    }

    /** Whether the boundaries are periodic (else open). */
    public boolean periodic() {
        return periodic;
    }

    /** The number of sites: the vertices of the CSR graph. */
    public int siteCount() {
        return siteCount;
    }

    /** The number of arcs of the CSR graph, twice the bonds. */
    public long arcCount() {
        return arcCount;
    }

    /** The number of bonds (undirected edges), indexed from 0. */
    public long bondCount() {
        return bondCount;
    }

    /**
     * The number of sites on open boundary {@code side} (0 or 1): the first and last row (2D) or
     * plane along z (3D), the centre and the surface shell (Bethe); 0 when periodic.
     */
    public int sideCount(int side) {
        return sideCounts[side];
    }

    /** The CSR offsets, {@code siteCount() + 1} entries. */
    public int[] offsets() {
        return copy(siteCount + 1L, 0);
    }

    /** The neighbour of each arc. */
    public int[] neighbors() {
        return copy(arcCount, 1);
    }

    /** The bond index of each arc. */
    public int[] arcBonds() {
        return copy(arcCount, 2);
    }

    /** The sites of open boundary {@code side} (0 or 1), ascending. */
    public int[] side(int side) {
        return copy(sideCounts[side], 3 + side);
    }

    private int[] copy(long count, int which) {
        check();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment buffer = call.allocate(ValueLayout.JAVA_INT, Math.max(1, count));
            MemorySegment[] targets = new MemorySegment[5];
            java.util.Arrays.fill(targets, MemorySegment.NULL);
            targets[which] = buffer;
            PhysicsCalls.check(ccl4j_lattice_copy(handle, targets[0], targets[1], targets[2], targets[3], targets[4]),
                    MemorySegment.NULL);
            return buffer.asSlice(0, count * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
        }
    }

    MemorySegment handle() {
        check();
        return handle;
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("the lattice is closed");
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ccl4j_lattice_destroy(handle);
        }
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " length " + length + (periodic ? " periodic" : " open") + ", " + siteCount + " sites, "
                + bondCount + " bonds";
    }
}
