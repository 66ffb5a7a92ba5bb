package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.ccl4j.Grid;
import org.ccl4j.testing.MeshTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writers write the cells a strided view or region shows, as they would a dense copy of them. */
class StridedGridWriterTest {
    @TempDir
    Path dir;

    @Test
    void writersWriteTheViewedCells() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Grid whole = MeshTestSupport.numbered(arena, 8, 6, 5);
            Grid r = whole.region(2, 1, 3, 4, 3, 2);
            int[] values = new int[(int) r.cellCount()];
            for (int i = 0; i < values.length; i++) {
                int x = i % 4;
                int y = i / 4 % 3;
                int z = i / 12;
                values[i] = whole.get(2 + x, 1 + y, 3 + z);
            }
            Grid copy = Grid.ofInts(arena, values, 4, 3, 2);
            Path viewFile = dir.resolve("view.raw");
            Path copyFile = dir.resolve("copy.raw");
            GridWriter.writeRaw(r, viewFile);
            GridWriter.writeRaw(copy, copyFile);
            assertArrayEquals(Files.readAllBytes(copyFile), Files.readAllBytes(viewFile));

            Grid image = Grid.allocate(arena, Grid.CellType.U8, 9, 7, 1);
            for (int i = 0; i < image.cellCount(); i++) {
                image.set(i, (i * 37) % 256);
            }
            Grid part = image.region(2, 3, 5, 4);
            byte[] partValues = new byte[(int) part.cellCount()];
            for (int i = 0; i < partValues.length; i++) {
                partValues[i] = (byte) image.get(2 + i % 5, 3 + i / 5, 0);
            }
            Grid partCopy = Grid.ofBytes(arena, partValues, 5, 4);
            for (String name : List.of("part.pgm", "part.png", "part.raw")) {
                GridWriter.write(part, dir.resolve("view-" + name));
                GridWriter.write(partCopy, dir.resolve("copy-" + name));
                assertArrayEquals(Files.readAllBytes(dir.resolve("copy-" + name)),
                        Files.readAllBytes(dir.resolve("view-" + name)), name);
            }
        }
    }
}
