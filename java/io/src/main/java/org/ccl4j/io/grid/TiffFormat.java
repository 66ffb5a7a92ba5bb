package org.ccl4j.io.grid;

import java.awt.Point;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferInt;
import java.awt.image.DataBufferFloat;
import java.awt.image.DataBufferUShort;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriter;
import javax.imageio.plugins.tiff.BaselineTIFFTagSet;
import javax.imageio.plugins.tiff.TIFFDirectory;
import javax.imageio.plugins.tiff.TIFFField;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;

/**
 * TIFF through the JDK's own {@code javax.imageio} plugin: a page is a z-slice, so a multi-page
 * stack is a volume. Read: one sample per pixel, unsigned or signed integers of 1 to 32 bits
 * (uint8 as uint8, the others widened to int32; uint32 within int32's range) and 32-bit floats
 * (through a threshold), any compression the plugin decodes. Written: uncompressed, one page per
 * z-slice, 8-bit unsigned for uint8 grids and 32-bit signed integers for int32 grids and labels.
 * The plugin does not tell where in the file a value lies: errors name the page and the pixel.
 */
final class TiffFormat {
    private TiffFormat() {
    }

    static Grid read(Path content, Path file, GridReadOptions options, Arena arena) throws IOException {
        ImageReader reader = ImageIO.getImageReadersByFormatName("tiff").next();
        try (ImageInputStream in = ImageIO.createImageInputStream(content.toFile())) {
            reader.setInput(in, false, false);
            int pages;
            Raster first;
            try {
                pages = reader.getNumImages(true);
                first = reader.read(0, null).getRaster();
            } catch (IOException | RuntimeException e) {
                throw new ImageFormatException(file, -1, -1, "the TIFF image cannot be read: " + e.getMessage(), e);
            }
            SampleType type = sampleType(reader, 0, first, file);
            GridDims dims = new GridDims(first.getWidth(), first.getHeight(), pages);
            GridReader.checkDims(file, dims, options);
            CellSink sink = new CellSink(arena, dims, type.cellType(), options.threshold());
            for (int z = 0; z < pages; z++) {
                Raster page;
                try {
                    page = z == 0 ? first : reader.read(z, null).getRaster();
                } catch (IOException | RuntimeException e) {
                    throw new ImageFormatException(file, -1, -1, "page " + z + " of the TIFF image cannot be read: "
                            + e.getMessage(), e);
                }
                if (page.getWidth() != dims.width() || page.getHeight() != dims.height()) {
                    throw new ImageFormatException(file, -1, -1, "page " + z + " is " + page.getWidth() + "x"
                            + page.getHeight() + ", page 0 " + dims.width() + "x" + dims.height()
                            + ": the pages of a volume have one size");
                }
                SampleType pageType = sampleType(reader, z, page, file);
                if (pageType != type) {
                    throw new ImageFormatException(file, -1, -1, "page " + z + " holds " + pageType.title()
                            + " samples, page 0 " + type.title() + ": the pages of a volume have one type");
                }
                copy(page, z, type, sink, file);
            }
            return sink.grid();
        } finally {
            reader.dispose();
        }
    }

    /** The type of a page's samples, from its raster and its SampleFormat tag; refuses the others. */
    private static SampleType sampleType(ImageReader reader, int page, Raster raster, Path file) throws IOException {
        if (raster.getNumBands() != 1) {
            throw new ImageFormatException(file, -1, -1, "page " + page + " has " + raster.getNumBands()
                    + " samples per pixel: only one (greyscale, labels) is read");
        }
        TIFFField format = TIFFDirectory.createFromMetadata(reader.getImageMetadata(page))
                .getTIFFField(BaselineTIFFTagSet.TAG_SAMPLE_FORMAT);
        int sampleFormat = format == null ? BaselineTIFFTagSet.SAMPLE_FORMAT_UNSIGNED_INTEGER : format.getAsInt(0);
        boolean signed = sampleFormat == BaselineTIFFTagSet.SAMPLE_FORMAT_SIGNED_INTEGER;
        int bits = raster.getSampleModel().getSampleSize(0);
        int dataType = raster.getDataBuffer().getDataType();
        if (sampleFormat == BaselineTIFFTagSet.SAMPLE_FORMAT_FLOATING_POINT) {
            if (dataType != DataBuffer.TYPE_FLOAT) {
                throw new ImageFormatException(file, -1, -1, "page " + page + " holds " + bits + "-bit floats:"
                        + " only 32-bit floats are read");
            }
            return SampleType.F4;
        }
        if (sampleFormat != BaselineTIFFTagSet.SAMPLE_FORMAT_UNSIGNED_INTEGER && !signed) {
            throw new ImageFormatException(file, -1, -1, "page " + page + " has SampleFormat " + sampleFormat
                    + ": only unsigned (1), signed (2) integers and floats (3) are read");
        }
        if (bits <= 8) {
            return signed ? SampleType.I1 : SampleType.U1;
        }
        if (bits <= 16) {
            return signed ? SampleType.I2 : SampleType.U2;
        }
        if (bits <= 32 && dataType == DataBuffer.TYPE_INT) {
            return signed ? SampleType.I4 : SampleType.U4;
        }
        throw new ImageFormatException(file, -1, -1, "page " + page + " holds " + bits + "-bit samples: integers of"
                + " up to 32 bits and 32-bit floats are read");
    }

    private static void copy(Raster page, int z, SampleType type, CellSink sink, Path file)
            throws ImageFormatException {
        int width = page.getWidth();
        int height = page.getHeight();
        long base = (long) width * height * z;
        int[] row = new int[width];
        float[] floats = type == SampleType.F4 ? new float[width] : null;
        int x0 = page.getMinX();
        int y0 = page.getMinY();
        for (int y = 0; y < height; y++) {
            long at = base + (long) width * y;
            if (floats != null) {
                page.getSamples(x0, y0 + y, width, 1, 0, floats);
                for (int x = 0; x < width; x++) {
                    sink.putFloat(at + x, floats[x]);
                }
                continue;
            }
            page.getSamples(x0, y0 + y, width, 1, 0, row);
            for (int x = 0; x < width; x++) {
                int value = switch (type) {
                    // the raster gives a signed byte's bits as 0..255, and an int32 raster's uint32 as an int
                    case I1 -> (byte) row[x];
                    case U4 -> {
                        if (row[x] < 0) {
                            throw new ImageFormatException(file, -1, -1, "page " + z + ", x=" + x + ", y=" + y
                                    + ": uint32 value " + Integer.toUnsignedString(row[x]) + " is out of the int32"
                                    + " range of grid cells (at most " + Integer.MAX_VALUE + ")");
                        }
                        yield row[x];
                    }
                    default -> row[x];
                };
                sink.put(at + x, value);
            }
        }
    }

    static void write(ArrayOutput cells, Path file) throws IOException {
        GridDims dims = cells.dims();
        if (cells.type() == SampleType.I8) {
            throw new IllegalArgumentException("TIFF holds integer samples of up to 32 bits: int64 labels are written"
                    + " as .npy, .nrrd, .nii or raw");
        }
        long pageCells = (long) dims.width() * dims.height();
        if (pageCells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a " + dims.width() + "x" + dims.height() + " page is more than a TIFF"
                    + " image holds here: write .npy, .nrrd or raw");
        }
        ImageWriter writer = ImageIO.getImageWritersByFormatName("tiff").next();
        try (OutputStream stream = ArrayOutput.open(file);
             ImageOutputStream out = ImageIO.createImageOutputStream(stream)) {
            writer.setOutput(out);
            writer.prepareWriteSequence(null);
            for (int z = 0; z < dims.depth(); z++) {
                long base = pageCells * z;
                BufferedImage image;
                if (cells.type() == SampleType.U1) {
                    byte[] page = new byte[(int) pageCells];
                    for (int i = 0; i < page.length; i++) {
                        page[i] = (byte) cells.get(base + i);
                    }
                    image = image(new DataBufferByte(page, page.length), DataBuffer.TYPE_BYTE, 8, dims);
                } else if (cells.type() == SampleType.U2) {
                    short[] page = new short[(int) pageCells];
                    for (int i = 0; i < page.length; i++) {
                        page[i] = (short) cells.get(base + i);
                    }
                    image = image(new DataBufferUShort(page, page.length), DataBuffer.TYPE_USHORT, 16, dims);
                } else if (cells.type() == SampleType.F4) {
                    float[] page = new float[(int) pageCells];
                    for (int i = 0; i < page.length; i++) {
                        page[i] = cells.getFloat(base + i);
                    }
                    image = image(new DataBufferFloat(page, page.length), DataBuffer.TYPE_FLOAT, 32, dims);
                } else {
                    int[] page = new int[(int) pageCells];
                    if (cells.dense() != null) {
                        MemorySegment.copy(cells.dense(), ValueLayout.JAVA_INT, base * 4, page, 0, page.length);
                    } else {
                        for (int i = 0; i < page.length; i++) {
                            page[i] = (int) cells.get(base + i);
                        }
                    }
                    image = image(new DataBufferInt(page, page.length), DataBuffer.TYPE_INT, 32, dims);
                }
                writer.writeToSequence(new IIOImage(image, null, null), null);
            }
            writer.endWriteSequence();
        } finally {
            writer.dispose();
        }
    }

    /** A greyscale image over one page's samples: the plugin writes TYPE_INT as signed 32-bit samples. */
    private static BufferedImage image(DataBuffer buffer, int dataType, int bits, GridDims dims) {
        ComponentColorModel model = new ComponentColorModel(ColorSpace.getInstance(ColorSpace.CS_GRAY),
                new int[] {bits}, false, false, Transparency.OPAQUE, dataType);
        WritableRaster raster = Raster.createWritableRaster(new PixelInterleavedSampleModel(dataType, dims.width(),
                dims.height(), 1, dims.width(), new int[] {0}), buffer, new Point(0, 0));
        return new BufferedImage(model, raster, false, null);
    }
}
