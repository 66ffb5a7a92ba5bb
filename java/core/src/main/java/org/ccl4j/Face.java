package org.ccl4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * A face of a grid, which a component touches when one of its cells lies on it: {@code X_MIN} at
 * x = 0, {@code X_MAX} at x = width - 1, and so on. A 2D grid has no Z faces. On periodic axes the
 * faces are those of the array.
 */
public enum Face {
    /** x = 0, written {@code x-}. */
    X_MIN("x-"),
    /** x = width - 1, written {@code x+}. */
    X_MAX("x+"),
    /** y = 0, written {@code y-}. */
    Y_MIN("y-"),
    /** y = height - 1, written {@code y+}. */
    Y_MAX("y+"),
    /** z = 0, written {@code z-} (3D grids only). */
    Z_MIN("z-"),
    /** z = depth - 1, written {@code z+} (3D grids only). */
    Z_MAX("z+");

    private final String symbol;

    Face(String symbol) {
        this.symbol = symbol;
    }

    /**
     * Its bit in a {@link Region#touches()} mask (as the native CCL4J_FACE_* constants).
     *
     * @return {@code 1 << ordinal()}
     */
    public int bit() {
        return 1 << ordinal();
    }

    /**
     * {@code x-}, {@code x+}, {@code y-}, ...
     *
     * @return its symbol
     */
    public String symbol() {
        return symbol;
    }

    /**
     * The faces of a mask.
     *
     * @param mask a {@link Region#touches()} mask
     * @return the faces whose bits are set
     */
    public static Set<Face> of(int mask) {
        Set<Face> faces = EnumSet.noneOf(Face.class);
        for (Face f : values()) {
            if ((mask & f.bit()) != 0) {
                faces.add(f);
            }
        }
        return faces;
    }

    /**
     * The faces of a mask as their symbols in order, such as {@code x-y+}; "" for none.
     *
     * @param mask a {@link Region#touches()} mask
     * @return their symbols
     */
    public static String symbols(int mask) {
        StringBuilder s = new StringBuilder();
        for (Face f : values()) {
            if ((mask & f.bit()) != 0) {
                s.append(f.symbol);
            }
        }
        return s.toString();
    }
}
