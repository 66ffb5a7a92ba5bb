package org.ccl4j.physics;

/** The lattices of {@link Lattice}: their native codes and sizes. */
public enum LatticeKind {
    /** The square lattice, L x L sites, coordination 4. */
    SQUARE(1, 2),
    /** The triangular lattice: square plus the diagonal (x, y)-(x + 1, y + 1), coordination 6. */
    TRIANGULAR(2, 2),
    /** The honeycomb lattice as a brick wall on L x L sites, coordination 3. */
    HONEYCOMB(3, 2),
    /** The simple cubic lattice, L x L x L sites, coordination 6. */
    SIMPLE_CUBIC(4, 3),
    /** The body-centred cubic lattice, L^3 cells of two sites, coordination 8. */
    BCC(5, 3),
    /** The Bethe lattice with z = 3, {@code length} shells around the centre, numbered outwards. */
    BETHE(6, 0),
    /** The same Bethe lattice with its sites numbered by a random permutation of the seed. */
    BETHE_RANDOM(7, 0);

    private final int nativeCode;
    private final int dimension;

    LatticeKind(int nativeCode, int dimension) {
        this.nativeCode = nativeCode;
        this.dimension = dimension;
    }

    int nativeCode() {
        return nativeCode;
    }

    /**
     * The number of sites of a lattice of this kind with {@code length} sites per side (shells for Bethe).
     *
     * @param length the sites per side, or the shells of a Bethe lattice
     * @return the number of sites
     */
    public long sites(int length) {
        return switch (this) {
            case BETHE, BETHE_RANDOM -> 3L * ((1L << length) - 1) + 1;
            case BCC -> 2L * length * length * length;
            default -> dimension == 3 ? (long) length * length * length : (long) length * length;
        };
    }

    /**
     * The length whose site count is nearest to {@code sites} (on a log scale for Bethe).
     *
     * @param sites the number of sites wanted, at least 1
     * @return the length (at least 1)
     */
    public int lengthFor(long sites) {
        if (sites < 1) {
            throw new IllegalArgumentException("a lattice needs at least one site, got " + sites);
        }
        return switch (this) {
            case BETHE, BETHE_RANDOM -> (int) Math.max(1, Math.round(Math.log((sites + 2) / 3.0) / Math.log(2)));
            case BCC -> (int) Math.max(1, Math.round(Math.cbrt(sites / 2.0)));
            default -> (int) Math.max(1, Math.round(dimension == 3 ? Math.cbrt(sites) : Math.sqrt(sites)));
        };
    }
}
