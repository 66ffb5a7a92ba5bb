/**
 * ccl4j for JGraphT: {@link org.ccl4j.jgrapht.Ccl4jConnectivityInspector} answers the queries of
 * JGraphT's {@code ConnectivityInspector} (connected sets, connectivity, paths) on any JGraphT graph
 * by labelling it with ccl4j, on the CPU or on a labeler of the caller's (a GPU one, for instance).
 *
 * <pre>{@code
 * Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
 * ...
 * var inspector = new Ccl4jConnectivityInspector<>(g);   // for new ConnectivityInspector<>(g)
 * List<Set<String>> components = inspector.connectedSets();
 * }</pre>
 *
 * <p>Both modules it requires are in its API, so a module that requires this one reads them too:
 * {@code org.ccl4j} (the labeler) and {@code org.jgrapht.core} (the graphs). ccl4j's native library
 * needs native access, granted to {@code org.ccl4j}.
 */
module org.ccl4j.jgrapht {
    requires transitive org.ccl4j;
    requires transitive org.jgrapht.core;

    exports org.ccl4j.jgrapht;
}
