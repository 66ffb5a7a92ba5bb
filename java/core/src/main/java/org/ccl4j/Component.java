package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One connected component (or cluster) of a labelling.
 *
 * @param label   its label (for canonical labels, its smallest member)
 * @param size    its number of members
 * @param members its member ids, ascending, as read-only native ints; null unless asked for
 *                (see {@link Labels#members()})
 */
public record Component(int label, int size, MemorySegment members) {

    /**
     * Whether the members came with this component.
     *
     * @return whether {@link #members()} is not null
     */
    public boolean hasMembers() {
        return members != null;
    }

    /**
     * The members copied into an array.
     *
     * @return the member ids, ascending
     * @throws IllegalStateException when the component was listed without its members
     */
    public int[] memberArray() {
        if (members == null) {
            throw new IllegalStateException("this component was listed without its members; use Labels.members()");
        }
        return members.toArray(ValueLayout.JAVA_INT);
    }

    @Override
    public String toString() {
        return "Component[label=" + label + ", size=" + size + (members == null ? "" : ", with members") + "]";
    }
}
