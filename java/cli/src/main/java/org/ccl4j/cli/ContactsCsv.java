package org.ccl4j.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.ccl4j.Contacts;

/**
 * The table of {@code --contacts}: one CSV row per pair of clusters that touch (cc3d's
 * {@code contacts}), with a header line:
 *
 * <pre>
 * label1,label2,contacts,x_faces,y_faces,z_faces,area
 * </pre>
 *
 * The labels are canonical (each cluster's smallest linear cell index), label1 &lt; label2, rows
 * ascending; {@code area} is the contact area with the voxel sizes of {@code --anisotropy},
 * written by {@link Double#toString(double)}, which reads back to the same double.
 */
final class ContactsCsv {
    private ContactsCsv() {
    }

    /** Writes the table to {@code file}, one of the run's {@code outputs}. */
    static void write(OutputFile.Group outputs, Path file, Contacts contacts, double[] voxel) throws IOException {
        outputs.write(file, temporary -> {
            try (BufferedWriter out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                out.write("label1,label2,contacts,x_faces,y_faces,z_faces,area");
                out.newLine();
                for (int r = 0; r < contacts.size(); r++) {
                    out.write(contacts.first(r) + "," + contacts.second(r) + "," + contacts.contacts(r) + ","
                            + contacts.xFaces(r) + "," + contacts.yFaces(r) + "," + contacts.zFaces(r) + ","
                            + contacts.area(r, voxel[0], voxel[1], voxel[2]));
                    out.newLine();
                }
            }
        });
    }

    /** The voxel sizes of {@code --anisotropy WX,WY[,WZ]} (WZ 1 when left out), each finite and positive. */
    static double[] anisotropy(String text) {
        String[] parts = text.split(",", -1);
        if (parts.length < 2 || parts.length > 3) {
            throw new UsageException("--anisotropy takes WX,WY or WX,WY,WZ, got '" + text + "'");
        }
        double[] voxel = {1, 1, 1};
        for (int i = 0; i < parts.length; i++) {
            try {
                voxel[i] = Double.parseDouble(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new UsageException("--anisotropy: '" + parts[i] + "' is not a number");
            }
            if (!(voxel[i] > 0) || !Double.isFinite(voxel[i])) {
                throw new UsageException("--anisotropy: voxel sizes must be finite and positive, got '" + parts[i] + "'");
            }
        }
        return voxel;
    }
}
