package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.testing.MeshTestSupport;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Any grid written in any format reads back to the same cells. */
class GridRoundTripProperties {

    @Property(tries = 60)
    void everyFormatGivesBackTheCells(@ForAll @IntRange(min = 1, max = 40) int width,
            @ForAll @IntRange(min = 1, max = 30) int height, @ForAll @IntRange(min = 1, max = 4) int depth,
            @ForAll boolean wide, @ForAll @IntRange(min = 1, max = 65535) int bound, @ForAll long seed)
            throws IOException {
        Path dir = Files.createTempDirectory("grid-round-trip");
        try (Arena arena = Arena.ofConfined()) {
            Grid.CellType type = wide ? Grid.CellType.I32 : Grid.CellType.U8;
            int limit = wide ? bound : Math.min(bound, 255);
            SplittableRandom random = new SplittableRandom(seed);
            Grid g = Grid.allocate(arena, type, width, height, depth);
            for (int i = 0; i < g.cellCount(); i++) {
                g.set(i, random.nextInt(limit + 1));
            }
            int[] expected = MeshTestSupport.values(g);
            for (String name : new String[] {"g.pgm", "g.png", "g.raw"}) {
                Path file = dir.resolve(name);
                GridWriter.write(g, file);
                Grid back = GridReader.read(file, GridReadOptions.defaults().withDims(name.endsWith(".raw")
                        ? GridDims.of(g) : new GridDims(width, height * depth, 1)).withRawType(type), arena);
                assertArrayEquals(expected, MeshTestSupport.values(back), name);
            }
            Path ascii = dir.resolve("g2.pgm");
            GridWriter.writePgmAscii(g, ascii);
            assertArrayEquals(expected, MeshTestSupport.values(GridReader.read(ascii, arena)));

            int threshold = random.nextInt(limit + 1);
            Grid cut = GridReader.read(dir.resolve("g.pgm"), GridReadOptions.defaults().withThreshold(threshold), arena);
            assertEquals(Grid.CellType.U8, cut.type());
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i] >= threshold ? 1 : 0, cut.get(i));
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
