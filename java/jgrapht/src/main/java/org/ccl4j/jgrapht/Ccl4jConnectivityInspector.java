package org.ccl4j.jgrapht;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.ccl4j.Backend;
import org.ccl4j.BackendUnavailableException;
import org.ccl4j.ComponentLabeler;
import org.jgrapht.Graph;
import org.jgrapht.event.GraphEdgeChangeEvent;
import org.jgrapht.event.GraphListener;
import org.jgrapht.event.GraphVertexChangeEvent;

/**
 * The connected components of a JGraphT graph, labelled by ccl4j: a drop-in for JGraphT's
 * {@code org.jgrapht.alg.connectivity.ConnectivityInspector} with the same queries and answers.
 *
 * <pre>{@code
 * Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
 * ...
 * var inspector = new Ccl4jConnectivityInspector<>(g);
 * List<Set<String>> components = inspector.connectedSets();
 * boolean reachable = inspector.pathExists("a", "b");
 * }</pre>
 *
 * <p><b>What it answers.</b> As {@code ConnectivityInspector} does:
 * <ul>
 * <li>Directed graphs are taken as undirected: the components are the weakly connected ones.
 *     Self loops and parallel edges change nothing.</li>
 * <li>{@link #connectedSets()} lists the components in the order of their first vertex in
 *     {@code graph.vertexSet()}'s iteration order; each set iterates its vertices in that order too.
 *     An empty graph has no component and is not connected.</li>
 * <li>Vertices are told apart by {@code equals} and {@code hashCode}, as JGraphT's graphs do.
 *     {@link #connectedSetOf} and the first vertex of {@link #pathExists} must be in the graph
 *     ({@link IllegalArgumentException} otherwise); a second vertex of {@code pathExists} that is
 *     not in the graph is reached by no path. {@code null} is a vertex of no graph (where
 *     {@code ConnectivityInspector.connectedSetOf(null)} returns every vertex).</li>
 * </ul>
 *
 * <p><b>How.</b> The first query numbers the vertices once, in {@code vertexSet()} order, turns the
 * edges into two {@code int} arrays of those numbers and labels them with ccl4j; the answer is kept
 * until the graph changes. It is compact: the labels, the vertices grouped by component and the
 * numbers of the vertices (a {@code HashMap}, or an {@code int} array when the vertices are the
 * {@code Integer}s {@code 0..n-1}), no set per component; the sets returned are unmodifiable views
 * of it. A graph of more edges than an {@code int} array holds ({@code Integer.MAX_VALUE - 8}) is
 * refused with an {@link IllegalArgumentException} at the first query.
 *
 * <p><b>Changes.</b> Like {@code ConnectivityInspector}, the inspector does not see changes of the
 * graph by itself: register it on a {@link org.jgrapht.ListenableGraph} with
 * {@code addGraphListener}, and any change of vertices or edges drops the answer, so that the next
 * query labels the graph anew. (Where {@code ConnectivityInspector} merges two sets after an added
 * edge and appends the merged set to its list, the new labelling lists the components in
 * {@code vertexSet()} order again: the same sets, perhaps in another order.)
 *
 * <p><b>The labeler.</b> {@link #Ccl4jConnectivityInspector(Graph, ComponentLabeler)} labels with a
 * labeler of the caller's, which the inspector never closes: pick the backend there (CUDA, for
 * one), and close it when done. {@link #Ccl4jConnectivityInspector(Graph)} opens a labeler for each
 * labelling and closes it before the query returns, so that no native resource outlives a query: on
 * {@link Backend#CPU_PARALLEL}, or on {@link Backend#JAVA} where the native library is not available
 * (said once, as a warning of the logger {@code org.ccl4j.jgrapht}).
 *
 * <p>An inspector is not thread-safe, nor is the graph it reads; the sets it returned stay valid
 * and unchanged when the graph changes.
 *
 * @param <V> the graph's vertex type
 * @param <E> the graph's edge type
 */
public final class Ccl4jConnectivityInspector<V, E> implements GraphListener<V, E> {
    /** The longest int array a JVM allocates: the edge lists are two of them. */
    private static final int MAX_EDGES = Integer.MAX_VALUE - 8;

    private final Graph<V, E> graph;
    private final ComponentLabeler labeler;  // null: one of the inspector's own per labelling
    private Components<V> components;        // null until the first query, and after a change

    /**
     * An inspector of {@code graph} that labels it on the CPU with a labeler of its own, opened and
     * closed within each labelling (see the class comment).
     *
     * @param graph the graph to inspect, directed or not; read at the first query, and again after a
     *              change it is told of
     * @throws NullPointerException when {@code graph} is null
     */
    public Ccl4jConnectivityInspector(Graph<V, E> graph) {
        this.graph = Objects.requireNonNull(graph, "graph");
        this.labeler = null;
    }

    /**
     * An inspector of {@code graph} that labels it with {@code labeler}, on that labeler's backend.
     * The labeler stays the caller's: the inspector never closes it, and it must be open at each
     * query that labels.
     *
     * @param graph the graph to inspect, directed or not; read at the first query, and again after a
     *              change it is told of
     * @param labeler the labeler to label with, open while the inspector labels; the caller closes it
     * @throws NullPointerException when {@code graph} or {@code labeler} is null
     */
    public Ccl4jConnectivityInspector(Graph<V, E> graph, ComponentLabeler labeler) {
        this.graph = Objects.requireNonNull(graph, "graph");
        this.labeler = Objects.requireNonNull(labeler, "labeler");
    }

    /**
     * The connected components (weakly connected, for a directed graph), in the order of their
     * first vertex in {@code vertexSet()}; each an unmodifiable set. Empty for an empty graph.
     *
     * @return the components as unmodifiable sets, in the order of their first vertex
     */
    public List<Set<V>> connectedSets() {
        return components().sets();
    }

    /**
     * Whether the graph is one component: false for an empty graph, as for {@code ConnectivityInspector}.
     *
     * @return true when the graph has exactly one component
     */
    public boolean isConnected() {
        return components().count() == 1;
    }

    /**
     * The component of {@code vertex}: the vertices a path reaches from it, itself included, as an
     * unmodifiable set.
     *
     * @param vertex a vertex of the graph
     * @return the vertices of its component, as an unmodifiable set
     * @throws IllegalArgumentException when {@code vertex} is not in the graph (or null)
     */
    public Set<V> connectedSetOf(V vertex) {
        return components().setOf(vertex);
    }

    /**
     * Whether a path joins {@code source} and {@code target} (ignoring the edges' directions);
     * false when {@code target} is not in the graph.
     *
     * @param source a vertex of the graph
     * @param target any vertex
     * @return whether {@code source} and {@code target} are in the same component
     * @throws IllegalArgumentException when {@code source} is not in the graph (or null)
     */
    public boolean pathExists(V source, V target) {
        return components().connected(source, target);
    }

    /** A vertex was added: the next query labels the graph anew. */
    @Override
    public void vertexAdded(GraphVertexChangeEvent<V> e) {
        components = null;
    }

    /** A vertex was removed: the next query labels the graph anew. */
    @Override
    public void vertexRemoved(GraphVertexChangeEvent<V> e) {
        components = null;
    }

    /** An edge was added: the next query labels the graph anew. */
    @Override
    public void edgeAdded(GraphEdgeChangeEvent<V, E> e) {
        components = null;
    }

    /** An edge was removed: the next query labels the graph anew. */
    @Override
    public void edgeRemoved(GraphEdgeChangeEvent<V, E> e) {
        components = null;
    }

    private Components<V> components() {
        Components<V> c = components;
        if (c == null) {
            c = compute();
            components = c;
        }
        return c;
    }

    /** Numbers the vertices in {@code vertexSet()} order, lists the edges by number and labels them. */
    private Components<V> compute() {
        Object[] vertices = graph.vertexSet().toArray();
        int n = vertices.length;
        VertexNumbers numbers = new VertexNumbers(vertices);
        Set<E> edgeSet = graph.edgeSet();
        int m = edgeSet.size();
        if (m > MAX_EDGES) {
            // Set.size() stops at Integer.MAX_VALUE
            throw new IllegalArgumentException("the graph has " + (m == Integer.MAX_VALUE ? "at least " : "") + m
                    + " edges; Ccl4jConnectivityInspector lists them in int arrays, which hold at most " + MAX_EDGES);
        }
        int[] sources = new int[m];
        int[] targets = new int[m];
        int k = 0;
        for (E e : edgeSet) {
            sources[k] = numbers.of(graph.getEdgeSource(e));
            targets[k++] = numbers.of(graph.getEdgeTarget(e));
        }
        int[] labels = n == 0 ? new int[0] : label(n, sources, targets);
        return new Components<>(vertices, numbers, labels);
    }

    /**
     * The canonical labels (each vertex's label is the smallest number in its component) of the
     * undirected graph of {@code n} vertices and the edges {@code sources[i]}–{@code targets[i]}.
     */
    private int[] label(int n, int[] sources, int[] targets) {
        if (labeler != null) {
            return labeler.labelEdges(n, sources, targets);
        }
        try (ComponentLabeler own = cpuLabeler()) {
            return own.labelEdges(n, sources, targets);
        }
    }

    /** Set once the native CPU backend turned out to be unavailable: from then on the JAVA backend labels. */
    private static final AtomicBoolean NATIVE_CPU_UNAVAILABLE = new AtomicBoolean();

    /** A new labeler on CPU_PARALLEL, or on JAVA without the native library (said once per JVM). */
    private static ComponentLabeler cpuLabeler() {
        if (!NATIVE_CPU_UNAVAILABLE.get()) {
            try {
                return ComponentLabeler.create(Backend.CPU_PARALLEL);
            } catch (BackendUnavailableException e) {
                if (NATIVE_CPU_UNAVAILABLE.compareAndSet(false, true)) {
                    System.getLogger("org.ccl4j.jgrapht").log(System.Logger.Level.WARNING,
                            "ccl4j-jgrapht labels on the JAVA backend: " + e.getMessage());
                }
            }
        }
        return ComponentLabeler.create(Backend.JAVA);
    }
}
