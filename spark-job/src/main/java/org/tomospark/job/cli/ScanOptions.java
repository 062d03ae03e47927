package org.tomospark.job.cli;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.WorkflowSettings;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.UserPaths;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of a scan's reconstruction, shared by {@code reconstruct} and {@code reprocess} (a picocli mixin):
 * the config file, then {@code --conf key=value}, then the explicit options, each onto its config key.
 */
public final class ScanOptions {
    @Option(names = "--center", paramLabel = "PIXELS|auto",
            description = "Centre of rotation in detector pixels (column j's centre is at j), or auto (see "
                + "--center-method); the centre used is recorded in report.json.")
    String center;

    @Option(names = "--center-method", paramLabel = "METHOD",
            description = "Method for --center auto: vo or correlation.")
    String centerMethod;

    @Option(names = "--stripe", paramLabel = "METHOD",
            description = "Stripe/ring removal: none, sorting, offset, fw, all (docs/stripes.md says which to use "
                + "when; settings: stripe.* keys).")
    String stripe;

    @Option(names = "--phase-energy", paramLabel = "KEV",
            description = "Paganin phase retrieval: photon energy in keV (with --phase-distance, --pixel-size, "
                + "--delta-beta).")
    String phaseEnergy;

    @Option(names = "--phase-distance", paramLabel = "METRES",
            description = "Paganin: sample-detector distance in metres.")
    String phaseDistance;

    @Option(names = "--pixel-size", paramLabel = "METRES",
            description = "Detector pixel size at the sample in metres: for Paganin, and for --conf "
                + "output.unit=metre.")
    String pixelSize;

    @Option(names = "--delta-beta", paramLabel = "RATIO", description = "Paganin: delta/beta.")
    String deltaBeta;

    @Option(names = "--half-acquisition",
            description = "360-degree scan with an offset axis: stitch to a 180-degree sinogram.")
    boolean halfAcquisition;

    @Option(names = "--bin", paramLabel = "COLS[,ROWS[,PROJ]]",
            description = "Binning of detector columns, rows and projections (e.g. 2 or 2,2,1).")
    String bin;

    @Option(names = "--roi", paramLabel = "COL,ROW,COLS,ROWS",
            description = "Region of interest within the slice; only it is computed.")
    String roi;

    @Option(names = "--slice-grid", paramLabel = "GRID",
            description = "astra (the axis at pixel (N-1)/2, default) or skimage (at N//2, as scikit-image's iradon).")
    String sliceGrid;

    @Option(names = "--output-format", paramLabel = "FORMAT",
            description = "tiff (slice_NNNNN.tif, default), zarr (volume.zarr, one chunk per slice) or hdf5 (volume.h5, one "
                    + "chunked dataset /volume, assembled from the slices at the end).")
    String outputFormat;

    @Option(names = "--zarr-compression", paramLabel = "CODEC",
            description = "With --output-format zarr: none (default) or zstd (numcodecs' zstd, level 3).")
    String zarrCompression;

    @Option(names = "--output-type", paramLabel = "TYPE",
            description = "Slice samples: float32 (default), float16, or uint16 (with --output-range).")
    String outputType;

    @Option(names = "--output-range", paramLabel = "MIN,MAX",
            description = "uint16 output: the values of counts 0 and 65535, or auto (output.percentiles of the middle "
                    + "slice).")
    String outputRange;

    @Option(names = "--filter", paramLabel = "WINDOW",
            description = "ramlak, shepp-logan, cosine, hamming, hann, parzen.")
    String filter;

    @Option(names = "--algorithm", paramLabel = "METHOD",
            description = "fbp (filtered back-projection, default), sirt, os-sart, cgls, mltr or tv (iterative; docs/iterative.md).")
    String algorithm;

    @Option(names = "--iterations", paramLabel = "N",
            description = "Iterations of the iterative methods (default: automatic, until --stop says the image is done).")
    String iterations;

    @Option(names = "--subsets", paramLabel = "N", description = "Ordered subsets of os-sart and mltr (default: automatic).")
    String subsets;

    @Option(names = "--stop", paramLabel = "RULE",
            description = "auto (default), iterations, residual, change or discrepancy (iterative.stop).")
    String stop;

    @Option(names = "--tolerance", paramLabel = "R",
            description = "Threshold of --stop: the relative residual (residual) or relative change per iteration (change).")
    String tolerance;

    @Option(names = "--tv-weight", paramLabel = "W", description = "Weight of tv's total-variation penalty (default: scaled to the data).")
    String tvWeight;

    @Option(names = "--start", paramLabel = "IMAGE", description = "Start image of the iterations: zero (default) or fbp.")
    String start;

    @Option(names = "--backend", paramLabel = "ID", description = "auto, or an installed backend: java, cuda, opencl.")
    String backend;

    @Option(names = "--slices", paramLabel = "START:END",
            description = "Detector rows (cone beam: slices of the volume) to reconstruct (END exclusive).")
    String slices;

    @Option(names = "--interpolation", paramLabel = "MODE", description = "linear or nearest.")
    String interpolation;

    @Option(names = "--slices-per-pass", paramLabel = "K", description = "Slices interleaved per pass: 1, 2, 4, 8, 16.")
    String slicesPerPass;

    @Option(names = "--geometry", paramLabel = "KIND",
            description = "parallel, cone (FDK into a volume; the cone.* keys or the input's /geometry) or auto (default: cone "
                    + "when the input has /geometry).")
    String geometry;

    @Option(names = "--prefiltered", description = "Cone beam: the projections come weighted and filtered; back-project them as "
            + "they are.")
    boolean prefiltered;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file of config keys (see conf/CONFIG.md): a path or any Hadoop URI (hdfs://...), "
                + "so that a driver on a cluster node reads it where the job's inputs are.")
    String config;

    @Option(names = "--conf", paramLabel = "KEY=VALUE", description = "Any config key; repeatable.")
    List<String> conf = new ArrayList<>();

    /** The settings these options give: the config file, then --conf, then the explicit options. */
    public Settings settings() throws IOException {
        ConfigDocsCommand.registerAll(); // every key is known before a config file or --conf names it
        Settings s = Settings.empty();
        if (config != null) {
            Path file = UserPaths.path(config, "config file (--config)");
            FileSystem fs = file.getFileSystem(HadoopConf.create());
            if (!fs.isFile(file)) throw new IllegalArgumentException(config + ": config file not found (--config)");
            try (Reader r = new InputStreamReader(fs.open(file), StandardCharsets.UTF_8)) {
                s = Settings.load(r, config);
            }
        }
        for (String kv : conf) {
            int eq = kv.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("--conf expects KEY=VALUE, got '" + kv + "'");
            s = s.with(kv.substring(0, eq).trim(), kv.substring(eq + 1));
        }
        // the workflow options: the same mapping as the notebook API's
        s = WorkflowSettings.center(s, center);
        s = WorkflowSettings.centerMethod(s, centerMethod);
        s = WorkflowSettings.stripe(s, stripe, null);
        s = WorkflowSettings.paganin(s, phaseEnergy, phaseDistance, pixelSize, deltaBeta);
        s = WorkflowSettings.roi(s, roi);
        if (halfAcquisition) s = WorkflowSettings.halfAcquisition(s, true);
        s = WorkflowSettings.binning(s, bin);
        s = set(s, CoreKeys.FILTER.name(), filter);
        s = set(s, CoreKeys.SLICE_GRID.name(), sliceGrid);
        s = set(s, CoreKeys.OUTPUT_FORMAT.name(), outputFormat);
        s = set(s, CoreKeys.ZARR_COMPRESSION.name(), zarrCompression);
        s = set(s, CoreKeys.OUTPUT_TYPE.name(), outputType);
        s = set(s, CoreKeys.OUTPUT_RANGE.name(), outputRange);
        s = set(s, CoreKeys.ALGORITHM.name(), algorithm);
        s = set(s, CoreKeys.ITERATIONS.name(), iterations);
        s = set(s, CoreKeys.SUBSETS.name(), subsets);
        s = set(s, CoreKeys.TOLERANCE.name(), tolerance);
        s = set(s, CoreKeys.STOP.name(), stop);
        s = set(s, CoreKeys.TV_WEIGHT.name(), tvWeight);
        s = set(s, CoreKeys.START.name(), start);
        s = set(s, CoreKeys.BACKEND.name(), backend);
        s = set(s, CoreKeys.SLICES.name(), slices);
        s = set(s, CoreKeys.INTERPOLATION.name(), interpolation);
        s = set(s, CoreKeys.GEOMETRY.name(), geometry);
        if (prefiltered) s = s.with(CoreKeys.CONE_PREFILTERED.name(), "true");
        return set(s, CoreKeys.SLICES_PER_PASS.name(), slicesPerPass);
    }

    static Settings set(Settings s, String key, String v) {
        return v == null ? s : s.with(key, v);
    }
}
