package example;

import java.lang.foreign.Arena;
import org.ccl4j.*;

public class LabelRegion {
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            Grid image = Grid.allocate(arena, Grid.CellType.U8, 1024, 1024, 1);
            image.set(200, 300, 0, 1);
            image.set(201, 300, 0, 1);
            MeshLabels roi = labeler.label(image.region(100, 200, 512, 256), MeshOptions.defaults());  // no copy
            System.out.println(roi.count() + " component, labelled " + roi.get(101, 100, 0)
                    + ": the region's linear index 100 + 512 * 100 of image cell (200,300)");
        }
    }
}
