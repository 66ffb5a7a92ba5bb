package example;

import java.lang.foreign.Arena;
import org.ccl4j.*;

public class Regions {
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            Grid image = Grid.ofBytes(arena, new byte[] {                // 6 x 4, zero is background
                    9, 9, 0, 0, 0, 7,
                    0, 9, 0, 0, 7, 0,
                    0, 0, 0, 0, 0, 0,
                    5, 5, 5, 0, 0, 3}, 6, 4);
            MeshOptions eight = MeshOptions.defaults().withConnectivity(8);
            // labels 1..k in raster order, 0 for background (as scikit-image's); the cells are the intensity
            try (MeshStatistics table = labeler.labelWithStatistics(image, eight, StatisticsOptions.defaults())) {
                for (Region r : table.regions().toList()) {
                    System.out.println(r.label() + ": " + r.size() + " cells, box (" + r.minX() + "," + r.minY()
                            + ")-(" + r.maxX() + "," + r.maxY() + "), centroid (" + r.centroidX() + ", "
                            + r.centroidY() + "), mean " + r.mean() + ", touches " + Face.symbols(r.touches()));
                }
                System.out.println("label of cell (4,1): " + table.labels().getAtIndex(
                        java.lang.foreign.ValueLayout.JAVA_INT, 4 + 6 * 1));
            }
        }
    }
}
