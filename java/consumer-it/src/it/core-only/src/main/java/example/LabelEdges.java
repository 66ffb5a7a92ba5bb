package example;

import java.lang.foreign.Arena;
import java.util.Arrays;
import org.ccl4j.*;

public class LabelEdges {
    public static void main(String[] args) {
        int[] sources = {0, 1, 3, 5, 6};                                    // edges 0-1, 1-2, 3-4, 5-5, 6-4
        int[] targets = {1, 2, 4, 5, 4};
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            int[] labels = labeler.labelEdges(8, sources, targets);           // arrays in, an array out
            EdgeList edges = EdgeList.fromArrays(arena, 8, sources, targets); // off-heap; wrap() takes your segments
            Labels l = labeler.label(edges);                                  // count, sizes, timings, ...
            CsrGraph graph = CsrGraph.fromEdges(arena, edges);                // the canonical CSR, built in parallel
            System.out.println(Arrays.toString(labels) + ", " + l.count() + " components, "
                    + graph.arcCount() + " arcs");
        }
    }
}
