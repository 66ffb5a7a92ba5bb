package org.ccl4j.io.grid;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ccl4j.GridDims;

/**
 * NumPy's {@code .npy}: the magic {@code \x93NUMPY}, the format version (1.0, 2.0 or 3.0), the
 * header's length (2 bytes in 1.0, 4 after), a Python dict literal with {@code descr},
 * {@code fortran_order} and {@code shape}, then the array. Shape {@code (H, W)} or
 * {@code (D, H, W)}: in C order the last axis varies fastest, which is a grid's x. Writes version
 * 1.0, C order, little-endian.
 */
final class NpyFormat {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** More header than any array needs: a bogus length is refused before it is read. */
    private static final int MAX_HEADER = 1 << 20;
    private static final String SUPPORTED = "|u1, |i1, <u2, <i2, <u4, <i4, <f4 (or > for big-endian)";

    private NpyFormat() {
    }

    /** The layout of the array in {@code content}, refusing every variant it does not read. */
    static ArrayLayout layout(Path content, Path file) throws IOException {
        long size = Files.size(content);
        byte[] head;
        try (InputStream in = Files.newInputStream(content)) {
            head = in.readNBytes(12);
            if (head.length < 10) {
                throw new ImageFormatException(file, -1, head.length, "the file ends inside the .npy preamble ("
                        + head.length + " bytes, at least 10 needed)");
            }
            for (int i = 0; i < MAGIC.length; i++) {
                if (head[i] != MAGIC[i]) {
                    throw new ImageFormatException(file, -1, i, "not a NumPy file: it does not start with \\x93NUMPY");
                }
            }
            int major = head[6] & 0xFF;
            int minor = head[7] & 0xFF;
            if (major < 1 || major > 3 || minor != 0) {
                throw new ImageFormatException(file, -1, 6, "format version " + major + "." + minor
                        + " is not supported: expected 1.0, 2.0 or 3.0");
            }
            ByteBuffer le = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
            long length = major == 1 ? le.getShort(8) & 0xFFFF : head.length < 12 ? -1 : le.getInt(8) & 0xFFFFFFFFL;
            int start = major == 1 ? 10 : 12;
            if (length < 0 || start + length > size) {
                throw new ImageFormatException(file, -1, Math.min(size, start + Math.max(0, length)),
                        "the file ends inside the header (" + Math.max(0, length) + " bytes from byte " + start + ")");
            }
            if (length > MAX_HEADER) {
                throw new ImageFormatException(file, -1, 8, "header length " + length + " exceeds " + MAX_HEADER
                        + " bytes");
            }
            byte[] text = new byte[(int) length];
            System.arraycopy(head, start, text, 0, Math.max(0, Math.min(head.length - start, text.length)));
            int have = Math.max(0, head.length - start);
            if (text.length > have) {
                in.readNBytes(text, have, text.length - have);
            }
            // Latin-1 keeps characters and byte offsets one for one
            return parse(content, file, new String(text, StandardCharsets.ISO_8859_1), start, start + length);
        }
    }

    private static ArrayLayout parse(Path content, Path file, String header, int start, long dataOffset)
            throws ImageFormatException {
        if (!header.stripLeading().startsWith("{")) {
            throw new ImageFormatException(file, -1, start, "the header is not a Python dict: it starts with '"
                    + header.substring(0, Math.min(20, header.length())).strip() + "'");
        }
        Matcher descr = find(file, header, start, "descr", "'([^']*)'|(\\[)");
        if (descr.group(2) != null) {
            throw new ImageFormatException(file, -1, start + descr.start(2), "structured dtypes are not supported:"
                    + " expected one of " + SUPPORTED);
        }
        long descrAt = start + descr.start(1);
        String dtype = descr.group(1);
        ByteOrder order = switch (dtype.isEmpty() ? ' ' : dtype.charAt(0)) {
            case '<', '|' -> ByteOrder.LITTLE_ENDIAN;
            case '>' -> ByteOrder.BIG_ENDIAN;
            default -> throw unsupported(file, descrAt, dtype);
        };
        SampleType sample = switch (dtype.substring(1)) {
            case "u1" -> SampleType.U1;
            case "i1" -> SampleType.I1;
            case "u2" -> SampleType.U2;
            case "i2" -> SampleType.I2;
            case "u4" -> SampleType.U4;
            case "i4" -> SampleType.I4;
            case "f4" -> SampleType.F4;
            default -> throw unsupported(file, descrAt, dtype);
        };
        Matcher fortran = find(file, header, start, "fortran_order", "(True|False)");
        Matcher shape = find(file, header, start, "shape", "\\(([^)]*)\\)");
        long shapeAt = start + shape.start(1);
        List<Long> axes = new ArrayList<>();
        for (String axis : shape.group(1).split(",")) {
            if (axis.isBlank()) {
                continue;
            }
            try {
                axes.add(Long.parseLong(axis.strip().replaceFirst("L$", "")));
            } catch (NumberFormatException e) {
                throw new ImageFormatException(file, -1, shapeAt, "shape (" + shape.group(1) + ") holds '"
                        + axis.strip() + "', not an integer");
            }
        }
        if (axes.size() != 2 && axes.size() != 3) {
            throw new ImageFormatException(file, -1, shapeAt, "shape (" + shape.group(1) + ") has " + axes.size()
                    + " dimensions: expected 2 (H, W) or 3 (D, H, W)");
        }
        for (long axis : axes) {
            if (axis < 1 || axis > Integer.MAX_VALUE) {
                throw new ImageFormatException(file, -1, shapeAt, "shape (" + shape.group(1) + ") has the extent "
                        + axis + ": every extent must lie in 1.." + Integer.MAX_VALUE);
            }
        }
        int n = axes.size();
        GridDims dims = new GridDims(axes.get(n - 1).intValue(), axes.get(n - 2).intValue(),
                n == 3 ? axes.get(0).intValue() : 1);
        return new ArrayLayout(content, dataOffset, 0, new ArrayLayout.Type(sample, -1, descrAt,
                "dtype '" + dtype + "'"), order, dims, fortran.group(1).equals("True"), false);
    }

    private static Matcher find(Path file, String header, int start, String key, String value)
            throws ImageFormatException {
        Matcher m = Pattern.compile("['\"]" + key + "['\"]\\s*:\\s*(?:" + value + ")").matcher(header);
        if (!m.find()) {
            throw new ImageFormatException(file, -1, start, "the header has no '" + key + "' of the expected form: "
                    + header.strip());
        }
        return m;
    }

    private static ImageFormatException unsupported(Path file, long at, String dtype) {
        return new ImageFormatException(file, -1, at, "dtype '" + dtype + "'" + describe(dtype)
                + " is not supported: expected one of " + SUPPORTED);
    }

    /** numpy's name of a dtype, as " (complex64)", where it has one. */
    private static String describe(String dtype) {
        Matcher m = Pattern.compile("[<>|=]?([a-zA-Z])(\\d+)").matcher(dtype);
        if (!m.matches()) {
            return "";
        }
        int bits = Integer.parseInt(m.group(2)) * 8;
        String name = switch (m.group(1)) {
            case "b" -> "bool";
            case "i" -> "int" + bits;
            case "u" -> "uint" + bits;
            case "f" -> "float" + bits;
            case "c" -> "complex" + bits;
            case "S", "a" -> "bytes";
            case "U" -> "str";
            case "V" -> "void";
            default -> "";
        };
        return name.isEmpty() ? "" : " (" + name + ")";
    }

    /** The preamble and header of a C-order little-endian array, padded to a multiple of 64 bytes. */
    static byte[] header(GridDims dims, SampleType type) {
        String descr = switch (type) {
            case U1 -> "|u1";
            case U2 -> "<u2";
            case I4 -> "<i4";
            case F4 -> "<f4";
            case I8 -> "<i8";
            default -> throw new IllegalArgumentException(type.title() + " is not written");
        };
        String shape = dims.depth() == 1 ? "(" + dims.height() + ", " + dims.width() + ")"
                : "(" + dims.depth() + ", " + dims.height() + ", " + dims.width() + ")";
        StringBuilder dict = new StringBuilder("{'descr': '" + descr + "', 'fortran_order': False, 'shape': "
                + shape + ", }");
        while ((10 + dict.length() + 1) % 64 != 0) {
            dict.append(' ');
        }
        dict.append('\n');
        byte[] text = dict.toString().getBytes(StandardCharsets.US_ASCII);
        ByteBuffer out = ByteBuffer.allocate(10 + text.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).put((byte) 1).put((byte) 0).putShort((short) text.length).put(text);
        return out.array();
    }

    static void write(ArrayOutput cells, Path file) throws IOException {
        try (OutputStream out = ArrayOutput.open(file)) {
            out.write(header(cells.dims(), cells.type()));
            cells.writeLittleEndian(out);
        }
    }
}
