package example;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import org.ccl4j.*;
import org.ccl4j.io.*;

public class LabelGraph {
    public static void main(String[] args) throws Exception {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {         // AUTO: CUDA if present, else CPU
            CsrGraph graph = GraphReader.read(Path.of(args[0]), arena).graph(); // off-heap, in `arena`
            Labels labels = labeler.label(graph);
            System.out.println(labels.count() + " components, the largest has "
                    + labels.largestComponentSize() + " vertices");
            int last = graph.vertexCount() - 1;
            System.out.println("vertex " + last + " is in the component of vertex " + labels.get(last));
            System.out.println(labels.timings());                            // phases in ms, backend, algorithm
        }
    }
}
