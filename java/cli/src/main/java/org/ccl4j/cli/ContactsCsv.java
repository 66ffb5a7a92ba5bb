package org.ccl4j.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.ccl4j.Contacts;
import org.ccl4j.Spacing;

/**
 * The table of {@code --contacts}: one CSV row per pair of clusters that touch (cc3d's
 * {@code contacts}), with a header line:
 *
 * <pre>
 * label1,label2,contacts,x_faces,y_faces,z_faces,area
 * </pre>
 *
 * The labels are canonical (each cluster's smallest linear cell index), label1 &lt; label2, rows
 * ascending; {@code area} is the contact area in the cell sizes of {@code --spacing},
 * written by {@link Double#toString(double)}, which reads back to the same double.
 */
final class ContactsCsv {
    private ContactsCsv() {
    }

    /** Writes the table to {@code file}, one of the run's {@code outputs}. */
    static void write(OutputFile.Group outputs, Path file, Contacts contacts, Spacing cells) throws IOException {
        outputs.write(file, temporary -> {
            try (BufferedWriter out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                out.write("label1,label2,contacts,x_faces,y_faces,z_faces,area");
                out.newLine();
                for (int r = 0; r < contacts.size(); r++) {
                    out.write(contacts.first(r) + "," + contacts.second(r) + "," + contacts.contacts(r) + ","
                            + contacts.xFaces(r) + "," + contacts.yFaces(r) + "," + contacts.zFaces(r) + ","
                            + contacts.area(r, cells.x(), cells.y(), cells.z()));
                    out.newLine();
                }
            }
        });
    }
}
