package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;

/**
 * The values a mesh statistics table sums, of the grid's extents: value (x, y, z) of
 * {@code type} at value offset {@code x + rowStride * y + layerStride * z} of {@code values}.
 * {@code values} is null where the grid's own cells are the intensity.
 */
public record IntensityData(ValueType type, long rowStride, long layerStride, MemorySegment values) {
    /** The type of a value; the codes are the ABI's {@code CCL4J_INTENSITY_*}. */
    public enum ValueType {
        U8(1, 1), I32(4, 2), F32(4, 3);

        private final int bytes;
        private final int code;

        ValueType(int bytes, int code) {
            this.bytes = bytes;
            this.code = code;
        }

        public int bytes() {
            return bytes;
        }

        public int code() {
            return code;
        }
    }
}
