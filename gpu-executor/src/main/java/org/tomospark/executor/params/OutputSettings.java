package org.tomospark.executor.params;

import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.ZarrCompression;

import java.io.Serializable;

/**
 * The slices' files.
 *
 * @param coding          how the slices' values are stored (float32, float16, uint16 over a range)
 * @param format          the files the slices go to: TIFFs, one Zarr array, or one HDF5 file
 * @param zarrCompression how a Zarr output's chunks are compressed
 */
public record OutputSettings(SampleCoding coding, OutputFormat format, ZarrCompression zarrCompression) implements Serializable {

    /** float32 TIFF slices. */
    public static final OutputSettings TIFF = new OutputSettings(null, null, null);

    public OutputSettings {
        if (coding == null) coding = SampleCoding.FLOAT32;
        if (format == null) format = OutputFormat.TIFF;
        if (zarrCompression == null) zarrCompression = ZarrCompression.NONE;
        if (zarrCompression != ZarrCompression.NONE && format != OutputFormat.ZARR)
            throw new IllegalArgumentException("output.zarr.compression=" + zarrCompression.id() + " compresses Zarr "
                    + "chunks; output.format is " + format.id());
    }
}
