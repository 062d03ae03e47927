package org.tomospark.executor.backends.cuda;

import jcuda.driver.CUDA_ARRAY3D_DESCRIPTOR;
import jcuda.driver.CUDA_MEMCPY3D;
import jcuda.driver.CUDA_RESOURCE_DESC;
import jcuda.driver.CUDA_TEXTURE_DESC;
import jcuda.driver.CUarray;
import jcuda.driver.CUarray_format;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfilter_mode;
import jcuda.driver.CUmemorytype;
import jcuda.driver.CUresourcetype;
import jcuda.driver.CUtexObject;

import static jcuda.driver.JCudaDriver.CUDA_ARRAY3D_LAYERED;
import static jcuda.driver.JCudaDriver.cuArray3DCreate;
import static jcuda.driver.JCudaDriver.cuArrayDestroy;
import static jcuda.driver.JCudaDriver.cuMemcpy3D;
import static jcuda.driver.JCudaDriver.cuTexObjectCreate;
import static jcuda.driver.JCudaDriver.cuTexObjectDestroy;

/**
 * The band of filtered projections, times the texture mode's scale in half precision, as a layered texture for the FDK
 * texture-mode kernels: a layer per projection, a row per band row; bilinear filtering by the texture unit (8-bit
 * weights) into float, zero beyond the band's edges (border addressing, so that pixels beyond the detector read zero
 * where the band reaches its edge). Copied on the device from the band's halves (fdk_halves); the array is made again
 * when the band's height changes. Driver calls only.
 */
final class FdkTexture implements AutoCloseable {
    /** Layers of a layered 2-D texture (compute capability 8.0 and newer). */
    static final int MAX_LAYERS = 2048;
    /** CU_TR_ADDRESS_MODE_BORDER (cuda.h: 3); JCuda 12.6's CUaddress_mode lacks the constant. */
    private static final int ADDRESS_MODE_BORDER = 3;
    /** Bytes of a half-precision texel. */
    static final int HALF_BYTES = 2;

    private final int cols, layers;
    private CUarray array;
    private CUtexObject texture;
    private int rows = -1;

    FdkTexture(int cols, int layers) {
        if (layers > MAX_LAYERS)
            throw new IllegalArgumentException("cuda fdk: a texture holds at most " + MAX_LAYERS + " projections, got " + layers);
        this.cols = cols;
        this.layers = layers;
    }

    /** Copies the band's halves (layers × bandRows × cols, 2 bytes each, on the device) into the texture. */
    void refresh(CUdeviceptr halves, int bandRows) {
        if (bandRows != rows) {
            release();
            create(bandRows);
        }
        CUDA_MEMCPY3D c = new CUDA_MEMCPY3D();
        c.srcMemoryType = CUmemorytype.CU_MEMORYTYPE_DEVICE;
        c.srcDevice = halves;
        c.srcPitch = (long) cols * HALF_BYTES;
        c.srcHeight = bandRows;
        c.dstMemoryType = CUmemorytype.CU_MEMORYTYPE_ARRAY;
        c.dstArray = array;
        c.WidthInBytes = (long) cols * HALF_BYTES;
        c.Height = bandRows;
        c.Depth = layers;
        cuMemcpy3D(c);
    }

    /** The texture handle of the last refresh. */
    CUtexObject handle() {
        if (texture == null) throw new IllegalStateException("cuda fdk: the texture holds no band yet");
        return texture;
    }

    private void create(int bandRows) {
        CUDA_ARRAY3D_DESCRIPTOR d = new CUDA_ARRAY3D_DESCRIPTOR();
        d.Width = cols;
        d.Height = bandRows;
        d.Depth = layers;
        d.Format = CUarray_format.CU_AD_FORMAT_HALF;
        d.NumChannels = 1;
        d.Flags = CUDA_ARRAY3D_LAYERED;
        array = new CUarray();
        cuArray3DCreate(array, d);
        CUDA_RESOURCE_DESC rd = new CUDA_RESOURCE_DESC();
        rd.resType = CUresourcetype.CU_RESOURCE_TYPE_ARRAY;
        rd.array_hArray = array;
        CUDA_TEXTURE_DESC td = new CUDA_TEXTURE_DESC();
        td.addressMode = new int[]{ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER};
        td.borderColor = new float[]{0f, 0f, 0f, 0f};
        td.filterMode = CUfilter_mode.CU_TR_FILTER_MODE_LINEAR;
        td.flags = 0;  // unnormalised coordinates, halves read as float
        texture = new CUtexObject();
        cuTexObjectCreate(texture, rd, td, null);
        rows = bandRows;
    }

    private void release() {
        if (texture != null) cuTexObjectDestroy(texture);
        if (array != null) cuArrayDestroy(array);
        texture = null;
        array = null;
        rows = -1;
    }

    @Override
    public void close() {
        release();
    }
}
