package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Projector;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUDA_MEMCPY2D;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUmemorytype;

import static jcuda.driver.JCudaDriver.cuMemcpy2D;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD2D32;

/**
 * The device layouts of the Joseph kernels (kernels/joseph.cu): images, sinograms and detector rows interleaved over
 * the k slices of a pass, with {@link #GUARD} zero pixels (bins) around every image line (sinogram row), weight images
 * laid out as an image of one slice (one value per pixel, shared by the k slices of an image), and the copies
 * between them and the unpadded host arrays of {@link Projector}: a whole host array goes through a scratch buffer of
 * its unpadded size in one transfer, and is (un)padded by a two-dimensional copy on the device. Driver calls only.
 */
final class PaddedLayout {
    /** Guard pixels around every line (JOSEPH_GUARD: the Joseph kernels read them as zeros). */
    static final int GUARD = KernelFacts.JOSEPH_GUARD;

    /**
     * The four kinds of vector: lines × length pixels (bins) of k floats, plus the guards; a weight image has the
     * lines and guards of an image, with one float a pixel.
     */
    enum Kind {IMAGE, SINOGRAM, ROW, WEIGHTS}

    private final Projector.Shape shape;

    PaddedLayout(Projector.Shape shape) {
        this.shape = shape;
    }

    Projector.Shape shape() {
        return shape;
    }

    /** Whether vectors of this kind are laid out on the image grid, with guard lines above and below. */
    private static boolean onImageGrid(Kind kind) {
        return kind == Kind.IMAGE || kind == Kind.WEIGHTS;
    }

    /** Guard lines above (and as many below) the real lines of a vector of this kind. */
    long guardLines(Kind kind) {
        return onImageGrid(kind) ? GUARD : 0;
    }

    /** Lines of a padded vector of this kind: the real lines and the guard lines. */
    private long paddedLines(Kind kind) {
        return lines(kind) + 2 * guardLines(kind);
    }

    private long lines(Kind kind) {
        return switch (kind) {
            case IMAGE, WEIGHTS -> shape.rows();
            case SINOGRAM -> shape.projections();
            case ROW -> 1;
        };
    }

    /** Pixels (bins) of one unpadded line. */
    private long length(Kind kind) {
        return onImageGrid(kind) ? shape.cols() : shape.width();
    }

    /** Floats a pixel (bin) of this kind: the k slices of a pass, one for a weight image. */
    int slices(Kind kind) {
        return kind == Kind.WEIGHTS ? 1 : shape.k();
    }

    /** Floats of one padded line. */
    long pitchFloats(Kind kind) {
        return (length(kind) + 2L * GUARD) * slices(kind);
    }

    /** Floats of the guard at each end of a line. */
    long edgeFloats(Kind kind) {
        return (long) GUARD * slices(kind);
    }

    /** Floats of a padded vector. */
    long floats(Kind kind) {
        return paddedLines(kind) * pitchFloats(kind);
    }

    /** Floats of the unpadded host array. */
    long hostFloats(Kind kind) {
        return lines(kind) * length(kind) * slices(kind);
    }

    /** Byte offset of the first real element in a padded vector. */
    private long firstByte(Kind kind) {
        return (guardLines(kind) * pitchFloats(kind) + edgeFloats(kind)) * Sizeof.FLOAT;
    }

    /** Floats of the largest unpadded vector (a weight image is never larger than an image): the scratch buffer's size. */
    long scratchFloats() {
        return Math.max(hostFloats(Kind.IMAGE), hostFloats(Kind.SINOGRAM));
    }

    void checkHost(float[] host, Kind kind) {
        if (host.length != hostFloats(kind))
            throw new IllegalArgumentException(kind.name().toLowerCase() + " of " + host.length + " floats, expected " + lines(kind)
                    + "x" + length(kind) + "x" + slices(kind));
    }

    /** host (unpadded) → dst (padded), through scratch. */
    void upload(float[] host, Kind kind, CUdeviceptr dst, CUdeviceptr scratch) {
        checkHost(host, kind);
        cuMemcpyHtoD(scratch, Pointer.to(host), (long) host.length * Sizeof.FLOAT);
        copy2d(scratch, 0, length(kind) * slices(kind), dst, firstByte(kind), pitchFloats(kind), kind);
    }

    /** src (padded) → host (unpadded), through scratch. */
    void download(CUdeviceptr src, Kind kind, float[] host, CUdeviceptr scratch) {
        checkHost(host, kind);
        copy2d(src, firstByte(kind), pitchFloats(kind), scratch, 0, length(kind) * slices(kind), kind);
        cuMemcpyDtoH(Pointer.to(host), scratch, (long) host.length * Sizeof.FLOAT);
    }

    /** The sinogram rows {@code rows} of src (padded) → the same rows of host (unpadded); its other rows are untouched. */
    void downloadRows(CUdeviceptr src, int[] rows, float[] host, CUdeviceptr scratch) {
        checkHost(host, Kind.SINOGRAM);
        copy2d(src, firstByte(Kind.SINOGRAM), pitchFloats(Kind.SINOGRAM), scratch, 0, length(Kind.SINOGRAM) * shape.k(), Kind.SINOGRAM);
        long row = length(Kind.SINOGRAM) * shape.k() * Sizeof.FLOAT;
        for (int p : rows)
            cuMemcpyDtoH(Pointer.to(host).withByteOffset(p * row), scratch.withByteOffset(p * row), row);
    }

    /** Sets every real element of a padded vector to value; the guards keep their zeros. */
    void fill(CUdeviceptr v, Kind kind, float value) {
        cuMemsetD2D32(v.withByteOffset(firstByte(kind)), pitchFloats(kind) * Sizeof.FLOAT, Float.floatToRawIntBits(value),
                length(kind) * slices(kind), lines(kind));
    }

    private void copy2d(CUdeviceptr src, long srcByte, long srcPitchFloats, CUdeviceptr dst, long dstByte, long dstPitchFloats,
                        Kind kind) {
        CUDA_MEMCPY2D c = new CUDA_MEMCPY2D();
        c.srcMemoryType = CUmemorytype.CU_MEMORYTYPE_DEVICE;
        c.srcDevice = src.withByteOffset(srcByte);
        c.srcPitch = srcPitchFloats * Sizeof.FLOAT;
        c.dstMemoryType = CUmemorytype.CU_MEMORYTYPE_DEVICE;
        c.dstDevice = dst.withByteOffset(dstByte);
        c.dstPitch = dstPitchFloats * Sizeof.FLOAT;
        c.WidthInBytes = length(kind) * slices(kind) * Sizeof.FLOAT;
        c.Height = lines(kind);
        cuMemcpy2D(c);
    }
}
