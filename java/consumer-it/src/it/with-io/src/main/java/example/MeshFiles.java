package example;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import org.ccl4j.*;
import org.ccl4j.io.grid.*;

public class MeshFiles {
    public static void main(String[] args) throws Exception {
        try (Arena arena = Arena.ofConfined();
             ComponentLabeler labeler = ComponentLabeler.create()) {
            Grid spiral = GridGenerators.fromSpec("spiral:256", arena);              // Hawick's test fields
            GridWriter.write(spiral, Path.of("spiral.pgm"));                         // .pgm P5, .png, else raw
            Grid alloy = GridGenerators.fromSpec("alloy:96x96x8:20:1", arena);
            GridWriter.write(alloy, Path.of("alloy.raw"));
            Grid image = GridReader.read(Path.of("spiral.pgm"), arena);              // format from the content
            Grid mask = GridReader.read(Path.of("spiral.pgm"),
                    GridReadOptions.defaults().withThreshold(2), arena);              // uint8: 1 where value >= 2
            Grid volume = GridReader.read(Path.of("alloy.raw"), GridReadOptions.defaults()
                    .withDims(GridDims.parse("96x96x8")).withRawType(Grid.CellType.U8), arena);
            MeshLabels labels = labeler.label(volume, MeshOptions.defaults().withMode(MeshMode.SAME_VALUE));
            LabelImageWriter.writePng(labels.segment(), volume.width(), volume.height(), volume.depth(),
                    Path.of("labels.png"));                                           // labels-z0.png ... z7
            System.out.println(labeler.label(image, MeshOptions.defaults().withMode(MeshMode.SAME_VALUE)).count()
                    + " spiral arms, " + labeler.label(mask).count() + " in the mask; "
                    + labels.count() + " domains in the alloy");
        }
    }
}
