package example;

import java.util.List;
import java.util.Set;
import org.ccl4j.jgrapht.Ccl4jConnectivityInspector;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

public class JGraphTComponents {
    public static void main(String[] args) {
        Graph<String, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        for (String v : List.of("a", "b", "c", "d", "e")) {
            g.addVertex(v);
        }
        g.addEdge("a", "b");
        g.addEdge("c", "b");
        g.addEdge("d", "e");
        var inspector = new Ccl4jConnectivityInspector<>(g);   // for new ConnectivityInspector<>(g)
        List<Set<String>> components = inspector.connectedSets();
        System.out.println(components + ", connected: " + inspector.isConnected()
                + ", a to c: " + inspector.pathExists("a", "c"));
    }
}
