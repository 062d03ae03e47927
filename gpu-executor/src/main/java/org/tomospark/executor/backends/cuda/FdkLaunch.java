package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.geometry.ConeVolume;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUtexObject;

/**
 * What one back-projection of a slab hands the FDK kernels: the band of filtered projections on the device (and its
 * texture, or an empty handle), the slab they add into, the volume, the slab's slices and the band's detector rows.
 *
 * @param band      projections × bandRows × cols floats, projection after projection
 * @param pairs     the texture mode's half-precision pairs of the band (fdk_pairs), or an unset pointer
 * @param scale     the factor on the band that the pairs and the texture hold (1 where there are none)
 * @param texture   the band as a layered texture (FdkTexture), or a null handle for kernels that read none
 * @param slab      slices × n × n floats, added to
 * @param k0        the slab's first slice in the volume
 * @param cols      detector columns
 * @param rows      detector rows
 * @param bandFirst the first detector row the band holds
 */
record FdkLaunch(CUdeviceptr band, CUdeviceptr pairs, float scale, CUtexObject texture, CUdeviceptr slab, ConeVolume vol, int k0,
                 int slices, int cols, int rows, int bandFirst, int bandRows) {
}
