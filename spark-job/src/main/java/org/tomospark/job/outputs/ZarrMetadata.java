package org.tomospark.job.outputs;

import org.tomospark.job.fs.Json;
import org.tomospark.executor.outputs.OutputType;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.ZarrCompression;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The metadata of the output's Zarr v2 array ({@code volume.zarr}): {@code .zarray} (shape [slices, height, width],
 * one slice per chunk, little-endian samples of the output type, no compressor or numcodecs' zstd, NaN or 0 where a
 * slice was not
 * reconstructed) and {@code .zattrs} (the geometry, centre, unit and value scaling, and xarray's dimension names).
 */
public final class ZarrMetadata {
    public static final String ZARRAY = SliceFiles.ZARR_DIR + "/.zarray";
    public static final String ZATTRS = SliceFiles.ZARR_DIR + "/.zattrs";

    private ZarrMetadata() {
    }

    /** {@code .zarray} for {@code slices} slices of {@code height × width}. */
    public static byte[] zarray(int slices, int height, int width, SampleCoding coding, ZarrCompression compression) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zarr_format", 2);
        m.put("shape", List.of(slices, height, width));
        m.put("chunks", List.of(1, height, width));
        m.put("dtype", switch (coding.type()) {
            case FLOAT32 -> "<f4";
            case FLOAT16 -> "<f2";
            case UINT16 -> "<u2";
        });
        m.put("compressor", compression == ZarrCompression.ZSTD
                ? Map.of("id", "zstd", "level", ZarrCompression.ZSTD_LEVEL) : null);
        m.put("fill_value", coding.type() == OutputType.UINT16 ? (Object) 0 : "NaN");
        m.put("order", "C");
        m.put("filters", null);
        m.put("dimension_separator", ".");
        return Json.write(m);
    }

    /** {@code .zattrs}: what the slices are, for readers of the array alone. */
    public static byte[] zattrs(Map<String, Object> tomospark) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("_ARRAY_DIMENSIONS", List.of("z", "y", "x"));
        m.put("tomospark", tomospark);
        return Json.write(m);
    }
}
