package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * The members of every component in compressed sparse rows: component {@code c} (in the order
 * asked for) has the members {@code members[offsets[c] .. offsets[c+1])}, ascending. Both
 * segments hold native-order ints, are read-only, and are on the Java heap (see {@link Labels}).
 */
public final class MemberLists {
    private final Labels.Order order;
    private final MemorySegment offsets;
    private final MemorySegment members;
    private final MemorySegment labels;
    private final long componentCount;

    MemberLists(Labels.Order order, MemorySegment offsets, MemorySegment members, MemorySegment labels,
                long componentCount) {
        this.order = order;
        this.offsets = offsets.asReadOnly();
        this.members = members.asReadOnly();
        this.labels = labels;
        this.componentCount = componentCount;
    }

    /**
     * The order of the components.
     *
     * @return the order
     */
    public Labels.Order order() {
        return order;
    }

    /**
     * The number of components.
     *
     * @return the number of components
     */
    public long count() {
        return componentCount;
    }

    /**
     * {@code count() + 1} offsets into {@link #members()}.
     *
     * @return the offsets, native-order ints
     */
    public MemorySegment offsets() {
        return offsets;
    }

    /**
     * The member ids of all components, component after component.
     *
     * @return the member ids, native-order ints
     */
    public MemorySegment members() {
        return members;
    }

    /**
     * Component {@code c} with its members (a slice of {@link #members()}).
     *
     * @param c the component's position, below {@link #count()}
     * @return the component with its label, size and members
     */
    public Component component(long c) {
        Objects.checkIndex(c, componentCount);
        int begin = offsets.getAtIndex(ValueLayout.JAVA_INT, c);
        int end = offsets.getAtIndex(ValueLayout.JAVA_INT, c + 1);
        MemorySegment slice = members.asSlice((long) begin * Integer.BYTES, (long) (end - begin) * Integer.BYTES);
        return new Component(labels.getAtIndex(ValueLayout.JAVA_INT, c), end - begin, slice);
    }

    /**
     * The components in order, each with its members.
     *
     * @return one component per position, with its members
     */
    public Stream<Component> components() {
        return LongStream.range(0, componentCount).mapToObj(this::component);
    }
}
