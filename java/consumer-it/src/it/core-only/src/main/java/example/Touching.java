package example;

import java.lang.foreign.Arena;
import org.ccl4j.*;

public class Touching {
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            Grid segmentation = Grid.ofBytes(arena, new byte[] {      // 3 x 2, three regions by value
                    1, 1, 2,
                    1, 3, 2}, 3, 2);
            MeshLabels labels = labeler.label(segmentation, MeshOptions.defaults().withMode(MeshMode.SAME_VALUE),
                    arena);
            Contacts touching = labels.contacts(8);                     // cc3d.contacts(labels, connectivity=8)
            for (int r = 0; r < touching.size(); r++) {
                System.out.println(touching.first(r) + "-" + touching.second(r) + ": " + touching.contacts(r)
                        + " cell pairs, area " + touching.area(r, 2, 3, 1)); // anisotropy (2, 3, 1)
            }
        }
    }
}
