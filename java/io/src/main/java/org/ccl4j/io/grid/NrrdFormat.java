package org.ccl4j.io.grid;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.ccl4j.GridDims;

/**
 * NRRD (teem's "nearly raw raster data"): a text header, {@code NRRD000N} then {@code field: value}
 * lines ({@code #} comments and {@code key:=value} pairs are skipped), ended by a blank line and
 * followed by the data ({@code .nrrd}), or standing alone with a {@code data file} field naming the
 * data's file ({@code .nhdr}, relative to the header's directory). Read: dimension 2 or 3, sizes
 * x fastest, types uchar/char/ushort/short/int/uint/float (and their other spellings), encodings
 * raw and gzip, either endian, line skip and byte skip. Written: attached, raw, little-endian, with
 * the spatial fields of a {@link VoxelSpace} read from a NRRD file of the same extents.
 */
final class NrrdFormat {
    /** More header than any volume needs: a file without a blank line is refused there. */
    private static final int MAX_HEADER = 1 << 20;

    private NrrdFormat() {
    }

    /** A header line's value and the line it is on. */
    private record Field(String value, long line) {
    }

    static ArrayLayout layout(Path content, Path file) throws IOException {
        Map<String, Field> fields = new HashMap<>();
        long dataOffset = -1;
        long line = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(content))) {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            long offset = 0;
            while (true) {
                int c = in.read();
                if (c >= 0) {
                    offset++;
                }
                if (c >= 0 && c != '\n') {
                    if (offset > MAX_HEADER) {
                        throw new ImageFormatException(file, line + 1, -1, "the header passes " + MAX_HEADER
                                + " bytes without ending (a blank line ends it)");
                    }
                    text.write(c);
                    continue;
                }
                String s = text.toString(StandardCharsets.ISO_8859_1);
                text.reset();
                if (s.endsWith("\r")) {
                    s = s.substring(0, s.length() - 1);
                }
                line++;
                if (line == 1) {
                    if (!s.matches("NRRD000[1-5]")) {
                        throw new ImageFormatException(file, 1, -1, "magic '" + s + "' is not NRRD0001..NRRD0005");
                    }
                } else if (s.isEmpty()) {
                    if (c >= 0) {
                        dataOffset = offset;
                    }
                    break;
                } else if (!s.startsWith("#") && !s.contains(":=")) {
                    int colon = s.indexOf(": ");
                    if (colon < 0) {
                        throw new ImageFormatException(file, line, -1, "'" + s + "' is not a 'field: value' line");
                    }
                    fields.put(s.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                            new Field(s.substring(colon + 2).strip(), line));
                }
                if (c < 0) {
                    break;
                }
            }
        }
        int dimension = number(file, fields, "dimension", line);
        Field dimensionField = fields.get("dimension");
        if (dimension != 2 && dimension != 3) {
            throw new ImageFormatException(file, dimensionField.line(), -1, "dimension " + dimension
                    + " is not supported: expected 2 or 3");
        }
        Field sizes = required(file, fields, "sizes", line);
        String[] extents = sizes.value().split("\\s+");
        if (extents.length != dimension) {
            throw new ImageFormatException(file, sizes.line(), -1, "sizes '" + sizes.value() + "' has "
                    + extents.length + " extents, dimension is " + dimension);
        }
        int[] e = new int[3];
        e[2] = 1;
        for (int i = 0; i < dimension; i++) {
            try {
                e[i] = Integer.parseInt(extents[i]);
            } catch (NumberFormatException x) {
                e[i] = 0;
            }
            if (e[i] < 1) {
                throw new ImageFormatException(file, sizes.line(), -1, "sizes '" + sizes.value() + "': '"
                        + extents[i] + "' is not an extent in 1.." + Integer.MAX_VALUE);
            }
        }
        Field typeField = required(file, fields, "type", line);
        SampleType type = switch (typeField.value().toLowerCase(Locale.ROOT)) {
            case "uchar", "unsigned char", "uint8", "uint8_t" -> SampleType.U1;
            case "char", "signed char", "int8", "int8_t" -> SampleType.I1;
            case "ushort", "unsigned short", "unsigned short int", "uint16", "uint16_t" -> SampleType.U2;
            case "short", "short int", "signed short", "signed short int", "int16", "int16_t" -> SampleType.I2;
            case "uint", "unsigned int", "uint32", "uint32_t" -> SampleType.U4;
            case "int", "signed int", "int32", "int32_t" -> SampleType.I4;
            case "float" -> SampleType.F4;
            default -> throw new ImageFormatException(file, typeField.line(), -1, "type '" + typeField.value()
                    + "' is not supported: expected one of uchar, char, ushort, short, uint, int, float");
        };
        Field encodingField = required(file, fields, "encoding", line);
        boolean gzip = switch (encodingField.value().toLowerCase(Locale.ROOT)) {
            case "raw" -> false;
            case "gzip", "gz" -> true;
            default -> throw new ImageFormatException(file, encodingField.line(), -1, "encoding '"
                    + encodingField.value() + "' is not supported: expected raw or gzip");
        };
        ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        Field endian = fields.get("endian");
        if (endian != null) {
            order = switch (endian.value().toLowerCase(Locale.ROOT)) {
                case "little" -> ByteOrder.LITTLE_ENDIAN;
                case "big" -> ByteOrder.BIG_ENDIAN;
                default -> throw new ImageFormatException(file, endian.line(), -1, "endian '" + endian.value()
                        + "' is neither little nor big");
            };
        } else if (type.bytes() > 1) {
            throw new ImageFormatException(file, line, -1, "the header has no 'endian' field, which "
                    + type.title() + " cells need");
        }
        Field dataFile = fields.containsKey("data file") ? fields.get("data file") : fields.get("datafile");
        Path data = content;
        if (dataFile != null) {
            String name = dataFile.value();
            if (name.startsWith("LIST") || name.contains("%")) {
                throw new ImageFormatException(file, dataFile.line(), -1, "data file '" + name
                        + "' names several files: only one data file is supported");
            }
            Path dir = file.toAbsolutePath().getParent();
            data = dir == null ? Path.of(name) : dir.resolve(name);
            if (!Files.isRegularFile(data)) {
                throw new ImageFormatException(file, dataFile.line(), -1, "data file '" + name + "' (" + data
                        + ") does not exist");
            }
            dataOffset = 0;
        } else if (dataOffset < 0) {
            throw new ImageFormatException(file, line, -1, "the header ends without a blank line and names no"
                    + " 'data file': there is no data");
        }
        long lineSkip = fields.containsKey("line skip") ? nonNegative(file, fields.get("line skip"), "line skip") : 0;
        Field byteSkipField = fields.get("byte skip");
        long byteSkip = 0;
        if (byteSkipField != null && byteSkipField.value().equals("-1")) {
            if (gzip) {
                throw new ImageFormatException(file, byteSkipField.line(), -1, "byte skip -1 (data at the end of the"
                        + " file) applies to raw data only, not to gzip");
            }
            byteSkip = -1;
        } else if (byteSkipField != null) {
            byteSkip = nonNegative(file, byteSkipField, "byte skip");
        }
        dataOffset = skipLines(data, dataOffset, lineSkip, file, fields.get("line skip"));
        GridDims dims = new GridDims(e[0], e[1], e[2]);
        long need = Math.multiplyExact(dims.cellCount(), type.bytes());
        long offset = byteSkip == -1 ? Files.size(data) - need : gzip ? dataOffset : dataOffset + byteSkip;
        if (offset < 0) {
            throw new ImageFormatException(data, -1, 0, "the file is " + Files.size(data) + " bytes, less than the "
                    + need + " of a " + dims + " grid of " + type.title() + " cells");
        }
        return new ArrayLayout(data, offset, gzip ? byteSkip : 0, new ArrayLayout.Type(type, typeField.line(), -1,
                "type '" + typeField.value() + "'"), order, dims, false, gzip);
    }

    /** The offset after {@code lines} more lines of {@code data} from {@code offset}. */
    private static long skipLines(Path data, long offset, long lines, Path file, Field field) throws IOException {
        if (lines == 0) {
            return offset;
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(data))) {
            in.skipNBytes(offset);
            long at = offset;
            for (long skipped = 0; skipped < lines; ) {
                int c = in.read();
                if (c < 0) {
                    throw new ImageFormatException(file, field.line(), -1, "line skip " + lines + ": the data file"
                            + " has only " + skipped + " lines");
                }
                at++;
                if (c == '\n') {
                    skipped++;
                }
            }
            return at;
        }
    }

    private static Field required(Path file, Map<String, Field> fields, String name, long lastLine)
            throws ImageFormatException {
        Field f = fields.get(name);
        if (f == null) {
            throw new ImageFormatException(file, lastLine, -1, "the header has no '" + name + "' field");
        }
        return f;
    }

    private static int number(Path file, Map<String, Field> fields, String name, long lastLine)
            throws ImageFormatException {
        Field f = required(file, fields, name, lastLine);
        try {
            return Integer.parseInt(f.value());
        } catch (NumberFormatException e) {
            throw new ImageFormatException(file, f.line(), -1, name + " '" + f.value() + "' is not an integer");
        }
    }

    private static long nonNegative(Path file, Field f, String name) throws ImageFormatException {
        try {
            long value = Long.parseLong(f.value());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new ImageFormatException(file, f.line(), -1, name + " '" + f.value() + "' is not a count of bytes");
    }

    /**
     * An attached header for raw little-endian data, with the spatial fields of {@code space} where
     * it applies, padded with a comment to a multiple of 64 bytes.
     */
    static byte[] header(GridDims dims, SampleType type, VoxelSpace space) {
        String name = switch (type) {
            case U1 -> "uint8";
            case U2 -> "uint16";
            case I4 -> "int32";
            case F4 -> "float";
            case I8 -> "int64";
            default -> throw new IllegalArgumentException(type.title() + " is not written");
        };
        String sizes = dims.width() + " " + dims.height() + (dims.depth() == 1 ? "" : " " + dims.depth());
        String text = "NRRD0004\n# written by ccl4j\ntype: " + name + "\ndimension: " + (dims.depth() == 1 ? 2 : 3)
                + "\nsizes: " + sizes + "\n" + (space.appliesTo(GridFormat.NRRD, dims) ? space.nrrdLines() : "")
                + "encoding: raw\nendian: little\n";
        // the data starts 64-byte aligned, so that it can be mapped in place
        StringBuilder padded = new StringBuilder(text);
        int pad = (64 - (text.length() + 3) % 64) % 64;
        padded.append('#').append(" ".repeat(pad)).append("\n\n");
        return padded.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static void write(ArrayOutput cells, Path file, VoxelSpace space) throws IOException {
        try (OutputStream out = ArrayOutput.open(file)) {
            out.write(header(cells.dims(), cells.type(), space));
            cells.writeLittleEndian(out);
        }
    }
}
