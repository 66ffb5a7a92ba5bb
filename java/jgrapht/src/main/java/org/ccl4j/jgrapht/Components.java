package org.ccl4j.jgrapht;

import java.util.AbstractList;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;

/**
 * The components of a labelled graph, numbered in the order of their first vertex: the vertices
 * grouped by component and each vertex's component, with unmodifiable set views over them. Nothing
 * here changes after construction.
 *
 * @param <V> the vertex type
 */
final class Components<V> {
    private final VertexNumbers numbers;    // vertex -> its number (position in vertexSet() order)
    private final int[] componentOf;        // number -> component
    private final Object[] members;         // the vertices, component after component, each in number order
    private final int[] starts;             // component c is members[starts[c] .. starts[c + 1])
    private final List<Set<V>> sets = new ComponentList();

    /**
     * Groups {@code vertices} (numbered by position, as in {@code numbers}) by their canonical
     * {@code labels}, each the smallest number in its vertex's component; {@code labels} is taken
     * over and rewritten.
     */
    Components(Object[] vertices, VertexNumbers numbers, int[] labels) {
        int n = vertices.length;
        // A canonical label is the number of a vertex of its component that comes no later, so its
        // component is known by then: components are numbered in order of their first vertex.
        int count = 0;
        for (int v = 0; v < n; v++) {
            int label = labels[v];
            labels[v] = label == v ? count++ : labels[label];
        }
        int[] starts = new int[count + 1];
        for (int c : labels) {
            starts[c + 1]++;
        }
        for (int c = 0; c < count; c++) {
            starts[c + 1] += starts[c];
        }
        Object[] members = new Object[n];
        int[] next = Arrays.copyOf(starts, count);
        for (int v = 0; v < n; v++) {
            members[next[labels[v]]++] = vertices[v];
        }
        this.numbers = numbers;
        this.componentOf = labels;
        this.members = members;
        this.starts = starts;
    }

    int count() {
        return starts.length - 1;
    }

    List<Set<V>> sets() {
        return sets;
    }

    /** The component of {@code vertex}, which must be in the graph. */
    Set<V> setOf(V vertex) {
        return new ComponentSet(componentOf[numberOf(vertex)]);
    }

    /** Whether {@code source} (which must be in the graph) and {@code target} are in one component. */
    boolean connected(V source, V target) {
        int component = componentOf[numberOf(source)];
        int t = numbers.of(target);
        return t >= 0 && componentOf[t] == component;
    }

    private int numberOf(V vertex) {
        int number = numbers.of(vertex);
        if (number < 0) {
            throw new IllegalArgumentException("the graph has no vertex " + vertex);
        }
        return number;
    }

    /** The components in order, a view made on demand: no set object is kept per component. */
    private final class ComponentList extends AbstractList<Set<V>> implements RandomAccess {
        @Override
        public Set<V> get(int index) {
            return new ComponentSet(Objects.checkIndex(index, count()));
        }

        @Override
        public int size() {
            return count();
        }
    }

    /** One component: its members in {@code members}, membership by the vertex's number. */
    private final class ComponentSet extends AbstractSet<V> {
        private final int component;

        ComponentSet(int component) {
            this.component = component;
        }

        @Override
        public int size() {
            return starts[component + 1] - starts[component];
        }

        @Override
        public boolean contains(Object o) {
            int number = numbers.of(o);
            return number >= 0 && componentOf[number] == component;
        }

        @Override
        public Iterator<V> iterator() {
            return new Iterator<>() {
                private int next = starts[component];

                @Override
                public boolean hasNext() {
                    return next < starts[component + 1];
                }

                @Override
                @SuppressWarnings("unchecked") // members holds the graph's vertices, all of type V
                public V next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return (V) members[next++];
                }
            };
        }
    }
}
