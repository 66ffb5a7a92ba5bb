package example;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.ccl4j.*;

public class Bookkeeping {
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            CsrGraph graph = CsrGraph.fromEdges(arena, 10,          // 10 vertices; edges 0-1, 1-2, 2-3, 4-5, 5-6, 7-8
                    new int[] {0, 1, 2, 4, 5, 7}, new int[] {1, 2, 3, 5, 6, 8});
            Labels labels = labeler.label(graph);
            long k = labels.count();                                    // components
            LabelSummary s = labels.summary();                          // labelled entries, largest, smallest
            MemorySegment sizes = labels.sizes();                       // Java heap, in smallest-member order
            List<Component> top = labels.largest(2);                    // size descending, ties by label
            Histogram h = labels.histogram(Histogram.Binning.LOG2);     // or EXACT
            Labels compact = labels.compact(Labels.Order.SIZE_DESCENDING); // 0 = the largest component
            MemberLists members = labels.members();                     // CSR: offsets + member ids, ascending
            Labels big = labels.filter(3, Integer.MAX_VALUE);           // smaller components become -1
            CsrGraph giant = labels.largestComponentGraph(graph, arena); // its induced subgraph
            labels.components().forEach(c -> System.out.println(c.label() + " " + c.size()));
            System.out.println(k + " components; " + s + "; " + top + "; " + h + "; vertex 9 of the compact"
                    + " labels: " + compact.get(9) + "; " + members.count() + " member lists; " + big.count()
                    + " components of 3 or more; the largest has " + giant.vertexCount() + " vertices");
        }
    }
}
