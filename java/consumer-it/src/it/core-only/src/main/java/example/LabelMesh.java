package example;

import java.lang.foreign.Arena;
import org.ccl4j.*;

public class LabelMesh {
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 1024, 1024, 1);   // or Grid.wrap(segment, ...)
            for (int y = 0; y < 1024; y++) {                                       // fill the cells: stripes
                for (int x = 0; x < 1024; x++) {
                    grid.set(x, y, 0, (x + y) % 16 < 4 ? 1 : 0);
                }
            }
            MeshLabels labels = labeler.label(grid, MeshOptions.defaults()
                    .withConnectivity(8)                                           // 4 or 8 in 2D, 6, 18 or 26 in 3D
                    .withPeriodic(true, true, false)                               // wrap-around per axis
                    .withMode(MeshMode.FOREGROUND));                               // or SAME_VALUE
            System.out.println(labels.count() + " components, the largest has "
                    + labels.largestComponentSize() + " cells; cell (3,0) is in component " + labels.get(3, 0, 0));
            System.out.println(labels.timings());
        }
    }
}
