package example;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import org.ccl4j.*;
import org.ccl4j.io.*;

public class LabelWithinBudget {
    public static void main(String[] args) throws Exception {
        long budget = Long.parseLong(args[1]);                              // bytes of GPU memory
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            CsrGraph graph = GraphReader.read(Path.of(args[0]), arena).graph(); // a .csr file is mapped
            Labels labels = labeler.label(graph, LabelOptions.defaults().withDeviceMemory(budget));
            System.out.println(labels.count() + " components, labelled by "
                    + labels.timings().algorithm());                         // STREAMED on CUDA
        }
    }
}
