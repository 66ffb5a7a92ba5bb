package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The values a mesh statistics table sums, of the grid's extents: value (x, y, z) of
 * {@code type} at value offset {@code x + rowStride * y + layerStride * z} of {@code values}.
 * {@code values} is null where the grid's own cells are the intensity.
 */
public record IntensityData(ValueType type, long rowStride, long layerStride, MemorySegment values) {
    /** The type of a value (of cells too); the codes are the ABI's {@code CCL4J_INTENSITY_*}. */
    public enum ValueType {
        U8(1, 1), U16(2, 4), I32(4, 2), F32(4, 3);

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

        /** Value {@code index} of {@code values}, exactly: unsigned types as 0..255 and 0..65535. */
        public double read(MemorySegment values, long index) {
            return switch (this) {
                case U8 -> Byte.toUnsignedInt(values.get(ValueLayout.JAVA_BYTE, index));
                case U16 -> Short.toUnsignedInt(values.getAtIndex(ValueLayout.JAVA_SHORT, index));
                case I32 -> values.getAtIndex(ValueLayout.JAVA_INT, index);
                case F32 -> values.getAtIndex(ValueLayout.JAVA_FLOAT, index);
            };
        }
    }
}
