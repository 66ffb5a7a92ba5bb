/**
 * ccl4j for JGraphT graphs.
 *
 * <p>{@link org.ccl4j.jgrapht.Ccl4jConnectivityInspector} takes the place of JGraphT's
 * {@code ConnectivityInspector}: the same queries ({@code connectedSets}, {@code isConnected},
 * {@code connectedSetOf}, {@code pathExists}) with the same answers, on any {@code Graph<V, E>},
 * directed or not. Instead of a breadth-first search over the graph's objects, it numbers the
 * vertices once, hands the edges to ccl4j as two {@code int} arrays and labels them there, on the
 * CPU or on a labeler of the caller's (a GPU one, for instance).
 *
 * <pre>{@code
 * Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
 * g.addVertex("a");
 * g.addVertex("b");
 * g.addVertex("c");
 * g.addEdge("a", "b");
 *
 * var inspector = new Ccl4jConnectivityInspector<>(g);        // a CPU labeler per labelling
 * inspector.connectedSets();                                   // [[a, b], [c]]
 * inspector.pathExists("a", "c");                              // false
 *
 * try (ComponentLabeler gpu = ComponentLabeler.create(Backend.CUDA)) {
 *     new Ccl4jConnectivityInspector<>(g, gpu).isConnected();  // false; gpu stays open
 * }
 * }</pre>
 *
 * <p>Registered as a listener of a {@code ListenableGraph}, an inspector labels the graph again
 * after each change; see the class comment for the details of its answers and memory.
 */
package org.ccl4j.jgrapht;
