package org.ccl4j.io;

/**
 * How {@link GraphReader} interprets a file.
 *
 * @param keepIds for {@link GraphFormat#SNAP}: keep the ids of the file as vertex ids (they must
 *                then be below {@link Integer#MAX_VALUE}, and the vertex count is the largest id plus
 *                one) instead of numbering the ids {@code 0..n-1} in order of first appearance. The
 *                other formats always keep their ids: {@link GraphFormat#EDGES} ids are vertex numbers
 *                by definition, and Matrix Market and DIMACS declare their vertex count.
 */
public record ReadOptions(boolean keepIds) {
    private static final ReadOptions DEFAULTS = new ReadOptions(false);

    /** The defaults: SNAP ids are renumbered. */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }
}
