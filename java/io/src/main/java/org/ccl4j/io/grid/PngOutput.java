package org.ccl4j.io.grid;

import java.awt.Image;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.ColorModel;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferUShort;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.awt.image.RenderedImage;
import java.awt.image.SampleModel;
import java.awt.image.WritableRaster;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Vector;
import java.util.stream.IntStream;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Writes PNG files through {@code javax.imageio}'s PNG writer, one row at a time: the image handed
 * to the writer is a {@link RenderedImage} whose tiles are single rows, computed when the writer
 * asks for them, so an image of any size needs memory for a few rows only (a {@code BufferedImage}
 * would hold all of it on the heap). The writer also chooses a filter for each row, which makes
 * smaller files than filter 0 everywhere; deflate runs at its fastest level.
 */
final class PngOutput {
    /** Deflate level 1 (fastest), as the PNG writer's compression quality {@code (9 - level) / 9}. */
    private static final float FASTEST = 8f / 9f;

    /** Produces row {@code y} into {@code row}: its samples, pixel by pixel, band by band. */
    @FunctionalInterface
    interface Rows<T> {
        void fill(int y, T row);
    }

    private PngOutput() {
    }

    /** An 8-bit greyscale PNG; {@code row} holds {@code width} samples. */
    static void grey8(Path file, int width, int height, Rows<byte[]> rows) throws IOException {
        write(file, width, height, 1, DataBuffer.TYPE_BYTE, ColorSpace.CS_GRAY,
                (y, buffer) -> rows.fill(y, ((DataBufferByte) buffer).getData()));
    }

    /** A 16-bit greyscale PNG; {@code row} holds {@code width} unsigned samples. */
    static void grey16(Path file, int width, int height, Rows<short[]> rows) throws IOException {
        write(file, width, height, 1, DataBuffer.TYPE_USHORT, ColorSpace.CS_GRAY,
                (y, buffer) -> rows.fill(y, ((DataBufferUShort) buffer).getData()));
    }

    /** An 8-bit RGB PNG; {@code row} holds {@code 3 * width} samples, R G B for each pixel. */
    static void rgb8(Path file, int width, int height, Rows<byte[]> rows) throws IOException {
        write(file, width, height, 3, DataBuffer.TYPE_BYTE, ColorSpace.CS_sRGB,
                (y, buffer) -> rows.fill(y, ((DataBufferByte) buffer).getData()));
    }

    private static void write(Path file, int width, int height, int bands, int dataType, int colorSpace,
                              Rows<DataBuffer> rows) throws IOException {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("a PNG image needs positive dimensions, got " + width + "x" + height);
        }
        if ((long) width * bands > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("an image " + width + " pixels wide is too wide to write");
        }
        RowImage image = new RowImage(width, height, bands, dataType, colorSpace, rows);
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("png");
        if (!writers.hasNext()) {
            throw new IllegalStateException("this Java runtime has no PNG writer (module java.desktop)");
        }
        ImageWriter writer = writers.next();
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
             ImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setProgressiveMode(ImageWriteParam.MODE_DISABLED);
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(FASTEST);
            writer.setOutput(stream);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
    }

    /** An image of {@code height} one-row tiles, each filled by {@link Rows} when asked for. */
    private static final class RowImage implements RenderedImage {
        private final int width;
        private final int height;
        private final int dataType;
        private final SampleModel rowModel;
        private final ColorModel colorModel;
        private final Rows<DataBuffer> rows;

        RowImage(int width, int height, int bands, int dataType, int colorSpace, Rows<DataBuffer> rows) {
            this.width = width;
            this.height = height;
            this.dataType = dataType;
            this.rowModel = new PixelInterleavedSampleModel(dataType, width, 1, bands, width * bands,
                    IntStream.range(0, bands).toArray());
            this.colorModel = new ComponentColorModel(ColorSpace.getInstance(colorSpace), false, false,
                    Transparency.OPAQUE, dataType);
            this.rows = rows;
        }

        /** Row {@code y} as a raster located at (0, y). */
        private WritableRaster row(int y) {
            WritableRaster raster = Raster.createWritableRaster(rowModel, new Point(0, y));
            rows.fill(y, raster.getDataBuffer());
            return raster;
        }

        @Override
        public Raster getTile(int tileX, int tileY) {
            if (tileX != 0 || tileY < 0 || tileY >= height) {
                throw new IllegalArgumentException("no tile (" + tileX + ", " + tileY + ") in a " + width + "x"
                        + height + " image of one-row tiles");
            }
            return row(tileY);
        }

        @Override
        public Raster getData() {
            return getData(new Rectangle(0, 0, width, height));
        }

        @Override
        public Raster getData(Rectangle rect) {
            return copyData(colorModel.createCompatibleWritableRaster(rect.width, rect.height)
                    .createWritableTranslatedChild(rect.x, rect.y));
        }

        @Override
        public WritableRaster copyData(WritableRaster raster) {
            WritableRaster target = raster != null ? raster : colorModel.createCompatibleWritableRaster(width, height);
            int first = Math.max(0, target.getMinY());
            int end = Math.min(height, target.getMinY() + target.getHeight());
            for (int y = first; y < end; y++) {
                target.setRect(row(y));
            }
            return target;
        }

        @Override
        public Vector<RenderedImage> getSources() {
            return null;
        }

        @Override
        public Object getProperty(String name) {
            return Image.UndefinedProperty;
        }

        @Override
        public String[] getPropertyNames() {
            return null;
        }

        @Override
        public ColorModel getColorModel() {
            return colorModel;
        }

        @Override
        public SampleModel getSampleModel() {
            return rowModel;
        }

        @Override
        public int getWidth() {
            return width;
        }

        @Override
        public int getHeight() {
            return height;
        }

        @Override
        public int getMinX() {
            return 0;
        }

        @Override
        public int getMinY() {
            return 0;
        }

        @Override
        public int getNumXTiles() {
            return 1;
        }

        @Override
        public int getNumYTiles() {
            return height;
        }

        @Override
        public int getMinTileX() {
            return 0;
        }

        @Override
        public int getMinTileY() {
            return 0;
        }

        @Override
        public int getTileWidth() {
            return width;
        }

        @Override
        public int getTileHeight() {
            return 1;
        }

        @Override
        public int getTileGridXOffset() {
            return 0;
        }

        @Override
        public int getTileGridYOffset() {
            return 0;
        }

        @Override
        public String toString() {
            return "PngOutput.RowImage[" + width + "x" + height + ", data type " + dataType + "]";
        }
    }
}
