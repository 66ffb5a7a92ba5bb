package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.ContactRows;
import org.ccl4j.engine.spi.ContactSettings;

/**
 * {@code ccl4j_mesh_contacts} (int32 labels): a first call for the number of pairs, a second that
 * writes the columns, copied onto the Java heap.
 */
final class NativeContacts {
    private NativeContacts() {
    }

    static ContactRows of(NativeCalls calls, MemorySegment context, MemorySegment labels, ContactSettings s) {
        try (Arena arena = Arena.ofConfined()) {
            // native code cannot read the Java heap
            MemorySegment host = labels.isNative() ? labels
                    : arena.allocate(Math.max(1, labels.byteSize()), Integer.BYTES).copyFrom(labels);
            MemorySegment mesh = Abi.mesh(arena, s.width(), s.height(), s.depth(), IntensityData.ValueType.I32, 0, 0);
            int periodic = (s.periodicX() ? CCL4J_PERIODIC_X() : 0) | (s.periodicY() ? CCL4J_PERIODIC_Y() : 0)
                    | (s.periodicZ() ? CCL4J_PERIODIC_Z() : 0);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment none = MemorySegment.NULL;
            calls.check(ccl4j_mesh_contacts(context, mesh, host, s.connectivity(), periodic, 0, none, none, none, none,
                    none, none, count), context);
            long pairs = count.get(ValueLayout.JAVA_LONG, 0);
            if (pairs > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(pairs + " pairs of labels touch, more than a Java array holds");
            }
            int n = (int) pairs;
            MemorySegment first = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, n));
            MemorySegment second = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, n));
            MemorySegment[] counts = new MemorySegment[4];
            for (int c = 0; c < counts.length; c++) {
                counts[c] = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, n));
            }
            calls.check(ccl4j_mesh_contacts(context, mesh, host, s.connectivity(), periodic, n, first, second,
                    counts[0], counts[1], counts[2], counts[3], count), context);
            if (count.get(ValueLayout.JAVA_LONG, 0) != pairs) {
                throw new IllegalStateException("the labels changed between two calls");
            }
            return new ContactRows(longs(first, n), longs(second, n), counts[0].asSlice(0, 8L * n).toArray(
                    ValueLayout.JAVA_LONG), counts[1].asSlice(0, 8L * n).toArray(ValueLayout.JAVA_LONG),
                    counts[2].asSlice(0, 8L * n).toArray(ValueLayout.JAVA_LONG),
                    counts[3].asSlice(0, 8L * n).toArray(ValueLayout.JAVA_LONG));
        }
    }

    private static long[] longs(MemorySegment ints, int n) {
        return Arrays.stream(ints.asSlice(0, 4L * n).toArray(ValueLayout.JAVA_INT)).asLongStream().toArray();
    }
}
