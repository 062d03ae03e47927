package org.tomospark.job.outputs;

import org.tomospark.executor.outputs.FloatTiff;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.OutputType;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.SliceTiff;
import org.tomospark.executor.outputs.TiffEncoder;
import org.tomospark.executor.outputs.ZarrCompression;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.params.OutputSettings;

import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.regex.Pattern;

/**
 * The file each slice goes to, by output format, and its bytes: a TIFF {@code slice_NNNNN.tif}; the chunk
 * {@code volume.zarr/K.0.0} of a Zarr v2 array chunked one slice per chunk (K counted from the array's first slice, the
 * run's first output slice), whose bytes are the slice's samples,
 * little-endian, uncompressed (the array's metadata, {@link ZarrMetadata}, says so); or, for HDF5 output, the same
 * bytes in {@code volume.h5.slices/slice_NNNNN.raw}, from which the driver assembles {@code volume.h5}
 * ({@link Hdf5Volume}). Each is committed whole, under a temporary name and renamed into place, with its checksum
 * marker, by {@link OutputCommit}. A Zarr chunk may be compressed as one Zstandard frame ({@link ZarrCompression}).
 *
 * @param format      the output format
 * @param compression how Zarr chunks are compressed (NONE for other formats)
 * @param origin      the output slice index of the Zarr array's first slice (its chunk 0)
 */
public record SliceFiles(OutputFormat format, ZarrCompression compression, int origin) implements Serializable {
    public static final String ZARR_DIR = "volume.zarr";
    public static final Pattern ZARR_CHUNK = Pattern.compile("(\\d+)\\.0\\.0");
    public static final String HDF5_SLICES_DIR = "volume.h5.slices";
    public static final Pattern HDF5_SLICE = Pattern.compile("slice_(\\d{5,})\\.raw");
    public static final SliceFiles TIFF = new SliceFiles(OutputFormat.TIFF);

    public SliceFiles {
        if (compression != ZarrCompression.NONE && format != OutputFormat.ZARR)
            throw new IllegalArgumentException(compression.id() + " compression is for Zarr chunks, not " + format.id());
        if (origin < 0) throw new IllegalArgumentException("a volume's first slice is at index " + origin);
    }

    /** Uncompressed slices, a Zarr array beginning at slice 0. */
    public SliceFiles(OutputFormat format) {
        this(format, ZarrCompression.NONE, 0);
    }

    /** The slices' files of a run with these output settings whose first output slice is {@code first}. */
    public static SliceFiles of(OutputSettings output, int first) {
        return new SliceFiles(output.format(), output.zarrCompression(), first);
    }

    /** The same files in a volume whose Zarr array begins at output slice {@code first}. */
    public SliceFiles withOrigin(int first) {
        return new SliceFiles(format, compression, first);
    }

    /** The slice's file, relative to the output directory. */
    public String name(int row) {
        return switch (format) {
            case TIFF -> SliceWriter.sliceName(row);
            case ZARR -> ZARR_DIR + "/" + (row - origin) + ".0.0";
            case HDF5 -> String.format("%s/slice_%05d.raw", HDF5_SLICES_DIR, row);
        };
    }

    /** Bytes of one slice's file, at most (a compressed chunk is usually smaller). */
    public int size(int width, int height, String description, SampleCoding coding) {
        if (format == OutputFormat.TIFF) return TiffEncoder.size(width, height, description, coding);
        int raw = chunkBytes(width, height, coding);
        return compression == ZarrCompression.ZSTD ? new ZstdCompressor().maxCompressedLength(raw) : raw;
    }

    /**
     * Writes one slice's file to the start of {@code dst} (at least {@link #size} bytes); returns its length, which is
     * {@link #size} but for a compressed chunk.
     */
    public int encodeInto(float[] pixels, int width, int height, String description, SampleCoding coding, byte[] dst) {
        if (format == OutputFormat.TIFF) {
            TiffEncoder.encodeInto(pixels, width, height, description, coding, dst);
            return size(width, height, description, coding);
        }
        if (pixels.length != (long) width * height)
            throw new IllegalArgumentException("slice holds " + pixels.length + " values, expected " + width + "x"
                    + height);
        if (compression == ZarrCompression.NONE) {
            coding.put(pixels, ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN));
            return chunkBytes(width, height, coding);
        }
        byte[] raw = new byte[chunkBytes(width, height, coding)];
        coding.put(pixels, ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN));
        return new ZstdCompressor().compress(raw, 0, raw.length, dst, 0, dst.length);
    }

    /**
     * Writes one slice's file into {@code dst} (at least {@link #size} bytes of capacity; a direct buffer is written to a
     * local file without a copy) from its start; leaves {@code dst} holding exactly the file (position 0, limit its
     * length) and returns the length.
     */
    public int encodeInto(float[] pixels, int width, int height, String description, SampleCoding coding, ByteBuffer dst) {
        return encodeInto(FloatBuffer.wrap(pixels), width, height, description, coding, dst);
    }

    /** As above, the pixels read from {@code pixels} (position 0 to its limit: a slice frame's, say). */
    public int encodeInto(FloatBuffer pixels, int width, int height, String description, SampleCoding coding, ByteBuffer dst) {
        if (format == OutputFormat.TIFF) return TiffEncoder.encodeInto(pixels, width, height, description, coding, dst);
        if (pixels.limit() != (long) width * height)
            throw new IllegalArgumentException("slice holds " + pixels.limit() + " values, expected " + width + "x"
                    + height);
        int raw = chunkBytes(width, height, coding);
        dst.clear().order(ByteOrder.LITTLE_ENDIAN);
        if (compression == ZarrCompression.NONE) {
            coding.put(pixels, dst);
            dst.position(0).limit(raw);
            return raw;
        }
        byte[] rawBytes = new byte[raw];
        coding.put(pixels, ByteBuffer.wrap(rawBytes).order(ByteOrder.LITTLE_ENDIAN));
        byte[] heap = new byte[size(width, height, description, coding)];
        int n = new ZstdCompressor().compress(rawBytes, 0, raw, heap, 0, heap.length);
        dst.put(heap, 0, n).flip();
        return n;
    }

    /**
     * The slice's file in place in a direct frame, where its bytes are the frame's: float32 samples, uncompressed, and
     * for a TIFF a header no longer than the frame's room, which is written there, right before the pixels. Returns a
     * view of the frame's memory holding exactly the file (position 0, limit its length), or null where the file must be
     * encoded instead (a heap frame, another sample type, a compressed chunk, a header larger than the room).
     */
    public ByteBuffer fileInFrame(SliceFrame frame, int width, int height, String description, SampleCoding coding) {
        if (!frame.isDirect() || coding.type() != OutputType.FLOAT32 || compression != ZarrCompression.NONE) return null;
        if (frame.pixels() != (long) width * height)
            throw new IllegalArgumentException("slice holds " + frame.pixels() + " values, expected " + width + "x" + height);
        int header = format == OutputFormat.TIFF ? TiffEncoder.pixelOffset(width, height, description, coding) : 0;
        if (header > frame.room()) return null;
        ByteBuffer file = frame.memory().position(frame.room() - header).slice().order(ByteOrder.LITTLE_ENDIAN);
        if (header > 0) TiffEncoder.writeHeader(width, height, description, coding, file);
        file.position(0).limit(header + 4 * frame.pixels());
        return file;
    }

    /** A slice's values back from its file's bytes. */
    public FloatTiff.Image decode(byte[] bytes, int width, int height, SampleCoding coding) throws IOException {
        if (format == OutputFormat.TIFF) return SliceTiff.decode(bytes, coding);
        if (compression == ZarrCompression.ZSTD) bytes = decompress(bytes, chunkBytes(width, height, coding));
        if (bytes.length != chunkBytes(width, height, coding))
            throw new IOException("a raw slice of " + bytes.length + " bytes is not one " + width + "x" + height + " "
                    + coding.type().id() + " slice");
        return new FloatTiff.Image(width, height, coding.get(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN),
                width * height));
    }

    /** The folder the slices' files are in, relative to the output directory; null for the output directory. */
    public String dir() {
        return switch (format) {
            case TIFF -> null;
            case ZARR -> ZARR_DIR;
            case HDF5 -> HDF5_SLICES_DIR;
        };
    }

    private static byte[] decompress(byte[] frame, int rawBytes) throws IOException {
        byte[] raw = new byte[rawBytes];
        int n;
        try {
            n = new ZstdDecompressor().decompress(frame, 0, frame.length, raw, 0, raw.length);
        } catch (MalformedInputException e) {
            throw new IOException("a Zstandard chunk that does not decompress: " + e.getMessage(), e);
        }
        if (n != rawBytes) throw new IOException("a Zstandard chunk of " + n + " bytes, not " + rawBytes);
        return raw;
    }

    /** Bytes of an uncompressed slice. */
    private static int chunkBytes(int width, int height, SampleCoding coding) {
        long n = (long) width * height * coding.type().bytes();
        if (n > Integer.MAX_VALUE - 8)
            throw new IllegalArgumentException("a " + width + "x" + height + " slice is too large for one chunk");
        return (int) n;
    }
}
