package org.tomospark.job.outputs;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.ZarrCompression;
import org.tomospark.executor.inputs.ScanMetadata;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * manifest.json, the same for both engines: the software, the input's identity, every setting and parameter, the run
 * signature, the geometry, and each slice with its checksum (and, where known, the group that made it, its share of
 * the time and the kernel). {@link OutputCommit#finished} reads the slice list back.
 */
public final class RunManifest {
    /** Where a slice came from: computed by this run (with its group, seconds and kernel when known) or reused. */
    public record Slice(OutputCommit.Committed committed, boolean reused, Integer group, Double seconds, String kernel) {
        public static Slice reused(OutputCommit.Committed c) {
            return new Slice(c, true, null, null, null);
        }
    }

    /**
     * The manifest's format: 2 records each slice's {@code checksum} as {@code ALGORITHM:HEX} ({@link SliceChecksum});
     * a manifest without a version recorded SHA-256 as {@code sha256}.
     */
    public static final int VERSION = 2;

    private RunManifest() {
    }

    /**
     * @param software  the software's name and version
     * @param engine    direct or spark
     * @param params    the parameters as run ({@link Json#describe}, centre resolved)
     * @param settings  the settings as given
     * @param rawVolume whether volume.raw was written
     * @param coding    how the slices' values are stored
     * @param files     the files the slices went to
     */
    public static Map<String, Object> build(String software, String engine, String signature, Map<String, Object> identity,
                                            Object inputOptions, Object params, Map<String, String> settings, ScanMetadata meta,
                                            ScanGeometry effective, SliceGeometry slice, Map<Integer, Slice> slices, boolean rawVolume,
                                            SampleCoding coding, SliceFiles files, Map<String, Object> report) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("manifestVersion", VERSION);
        m.put("software", Map.of("name", "tomospark", "version", software, "engine", engine));
        m.put("created", Instant.now().toString());
        m.put("runSignature", signature);
        m.put("input", identity);
        m.put("inputOptions", inputOptions);
        m.put("params", params);
        m.put("settings", settings);
        m.put("geometry", Map.of("angles", meta.numProjections(), "detectorRows", meta.rows(), "detectorWidth", meta.width(),
                "center", effective.centerOfRotation(), "sliceWidth", slice.roiCols(), "sliceHeight", slice.roiRows()));
        String format = switch (files.format()) {
            case TIFF -> coding.type().id() + " TIFF, one per slice, named slice_NNNNN.tif by detector row";
            case ZARR -> coding.type().id() + " Zarr v2 array volume.zarr [z][y][x] of the slices reconstructed, one chunk "
                    + "K.0.0 a slice, K = slice - " + files.origin() + ", "
                    + (files.compression() == ZarrCompression.ZSTD ? "zstd-compressed" : "uncompressed");
            case HDF5 -> coding.type().id() + " HDF5 dataset /volume [z][y][x] in volume.h5 of the slices reconstructed, z = 0 "
                    + "their first, one chunk a slice, "
                    + "assembled from the slices committed as volume.h5.slices/slice_NNNNN.raw";
        };
        m.put("output", Map.of("format", format,
                "type", coding.describe(),
                "rawVolume", rawVolume ? "volume.raw (float32 little-endian [slice][y][x])" : "none"));
        List<Map<String, Object>> list = new ArrayList<>();
        for (Map.Entry<Integer, Slice> e : slices.entrySet()) {
            Slice s = e.getValue();
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("row", e.getKey());
            x.put("file", files.name(e.getKey()));
            x.put("checksum", s.committed().checksum());
            x.put("bytes", s.committed().bytes());
            x.put("reused", s.reused());
            if (s.group() != null) x.put("group", s.group());
            if (s.seconds() != null) x.put("seconds", s.seconds());
            if (s.kernel() != null) x.put("kernel", s.kernel());
            list.add(x);
        }
        m.put("slices", list);
        m.put("report", report);
        return m;
    }
}
