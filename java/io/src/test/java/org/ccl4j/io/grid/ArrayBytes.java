package org.ccl4j.io.grid;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/**
 * NumPy, NRRD and NIfTI files byte by byte, of every element type, byte order and layout the readers
 * take (and some they refuse): the tests' own writers, independent of the library's.
 */
final class ArrayBytes {
    private ArrayBytes() {
    }

    /** Element types by numpy's letters and sizes: "u1", "i2", "f4", "i8", "c8", ... */
    static byte[] elements(String kind, ByteOrder order, double[] values) {
        int size = Integer.parseInt(kind.substring(1));
        ByteBuffer b = ByteBuffer.allocate(size * values.length).order(order);
        for (double v : values) {
            switch (kind) {
                case "u1", "i1" -> b.put((byte) (long) v);
                case "u2", "i2" -> b.putShort((short) (long) v);
                case "u4", "i4" -> b.putInt((int) (long) v);
                case "i8", "u8" -> b.putLong((long) v);
                case "f4" -> b.putFloat((float) v);
                case "f8" -> b.putDouble(v);
                default -> b.put(new byte[size]);
            }
        }
        return b.array();
    }

    /**
     * A .npy file of {@code values} in C order of {@code shape}; stored in Fortran order when asked
     * (the values are then permuted as numpy does).
     */
    static byte[] npy(int version, String descr, boolean fortran, int[] shape, double[] values) {
        double[] stored = fortran ? fortran(shape, values) : values;
        StringBuilder dims = new StringBuilder();
        for (int s : shape) {
            dims.append(s).append(", ");
        }
        String dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': ("
                + dims.toString().strip().replaceAll(",$", shape.length == 1 ? "," : "") + "), }";
        int pre = version == 1 ? 10 : 12;
        StringBuilder padded = new StringBuilder(dict);
        while ((pre + padded.length() + 1) % 64 != 0) {
            padded.append(' ');
        }
        padded.append('\n');
        byte[] header = padded.toString().getBytes(StandardCharsets.ISO_8859_1);
        ByteOrder order = descr.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        byte[] data = elements(descr.substring(1), order, stored);
        ByteBuffer b = ByteBuffer.allocate(pre + header.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) version, 0});
        if (version == 1) {
            b.putShort((short) header.length);
        } else {
            b.putInt(header.length);
        }
        return b.put(header).put(data).array();
    }

    /** The values of a C-order array of {@code shape} in Fortran order (the first axis fastest). */
    static double[] fortran(int[] shape, double[] values) {
        double[] out = new double[values.length];
        int n = shape.length;
        int[] index = new int[n];
        for (int c = 0; c < values.length; c++) {
            int rest = c;
            for (int a = n - 1; a >= 0; a--) {
                index[a] = rest % shape[a];
                rest /= shape[a];
            }
            int f = 0;
            for (int a = n - 1; a >= 0; a--) {
                f = f * shape[a] + index[a];
            }
            out[f] = values[c];
        }
        return out;
    }

    /** An attached NRRD file: {@code header} lines (without the magic), a blank line, then {@code data}. */
    static byte[] nrrd(String header, byte[] data) {
        byte[] text = ("NRRD0004\n" + header + "\n").getBytes(StandardCharsets.US_ASCII);
        return concat(text, data);
    }

    /** A NIfTI-1 .nii header (and extension flag) of {@code vox} bytes before {@code data}. */
    static byte[] nifti(ByteOrder order, short[] dim, short datatype, short bitpix, float voxOffset, byte[] data) {
        int vox = Math.max(352, (int) voxOffset);
        ByteBuffer b = ByteBuffer.allocate(vox + data.length).order(order);
        b.putInt(0, 348);
        for (int i = 0; i < dim.length; i++) {
            b.putShort(40 + 2 * i, dim[i]);
        }
        b.putShort(70, datatype).putShort(72, bitpix);
        b.putFloat(108, voxOffset);
        b.putFloat(112, 2f);  // scl_slope: not applied to labels
        b.put(344, "n+1\0".getBytes(StandardCharsets.US_ASCII));
        b.put(vox, data);
        return b.array();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out.toByteArray();
    }
}
