package org.tomospark.job.cli;

import org.tomospark.executor.pipeline.CoreKeys;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.JobKeys;
import org.tomospark.job.WorkflowSettings;
import org.tomospark.job.io.HadoopConf;
import org.tomospark.job.local.DemoInput;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.FileReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tomospark reconstruct [demo] --input URI --output URI [options]}. Settings come from the config
 * file, then {@code --conf key=value}, then the explicit options.
 */
@Command(name = "reconstruct", mixinStandardHelpOptions = true,
        description = "Reconstruct a scan (DataExchange HDF5, TIFF stack or raw binary; or the built-in demo) into float32 TIFF slices.")
public final class ReconstructCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "demo", description = "'demo' reconstructs the built-in phantom scan.")
    String dataset;

    // picocli formats descriptions with String.format: a literal percent sign is written %%
    @Option(names = "--input", paramLabel = "URI", description = "The scan (hdfs://, file:// or a path): a DataExchange HDF5 file, "
            + "a directory of TIFF projections (job.input.tiff.*) or a raw binary file (job.input.raw.*); job.input.format "
            + "picks one, auto by default. Taken literally, not URI-decoded: '%%20' is three characters, and '#', '%%' and "
            + "spaces are part of the name.")
    String input;

    @Option(names = "--output", paramLabel = "URI", description = "Output directory for slice_NNNNN.tif.")
    String output;

    @Option(names = "--center", paramLabel = "PIXELS|auto",
            description = "Centre of rotation in detector pixels (column j's centre is at j), or auto (see --center-method); the centre "
            + "used is recorded in report.json.")
    String center;

    @Option(names = "--center-method", paramLabel = "METHOD", description = "Method for --center auto: vo or correlation.")
    String centerMethod;

    @Option(names = "--center-sweep", paramLabel = "START:END:STEP",
            description = "Reconstruct the middle slice at each centre into the output (center_CCCC.CC.tif per centre + "
            + "contact-sheet.png) instead of the volume.")
    String centerSweep;

    @Option(names = "--stripe", paramLabel = "METHOD",
            description = "Stripe/ring removal: none, sorting, offset, fw, all (docs/stripes.md says which to use when; settings: "
            + "stripe.* keys).")
    String stripe;

    @Option(names = "--phase-energy", paramLabel = "KEV",
            description = "Paganin phase retrieval: photon energy in keV (with --phase-distance, --pixel-size, --delta-beta).")
    String phaseEnergy;

    @Option(names = "--phase-distance", paramLabel = "METRES", description = "Paganin: sample-detector distance in metres.")
    String phaseDistance;

    @Option(names = "--pixel-size", paramLabel = "METRES",
            description = "Detector pixel size at the sample in metres: for Paganin, and for --conf output.unit=metre.")
    String pixelSize;

    @Option(names = "--delta-beta", paramLabel = "RATIO", description = "Paganin: delta/beta.")
    String deltaBeta;

    @Option(names = "--half-acquisition", description = "360-degree scan with an offset axis: stitch to a 180-degree sinogram.")
    boolean halfAcquisition;

    @Option(names = "--bin", paramLabel = "COLS[,ROWS[,PROJ]]",
            description = "Binning of detector columns, rows and projections (e.g. 2 or 2,2,1).")
    String bin;

    @Option(names = "--roi", paramLabel = "COL,ROW,COLS,ROWS", description = "Region of interest within the slice; only it is computed.")
    String roi;

    @Option(names = "--filter", paramLabel = "WINDOW", description = "ramlak, shepp-logan, cosine, hamming, hann, parzen.")
    String filter;

    @Option(names = "--backend", paramLabel = "ID", description = "auto, java, cuda, opencl.")
    String backend;

    @Option(names = "--slices", paramLabel = "START:END", description = "Detector rows to reconstruct (END exclusive).")
    String slices;

    @Option(names = "--overwrite", description = "Replace an existing reconstruction.")
    boolean overwrite;

    @Option(names = "--resume", description = "Keep committed slices, compute only the missing ones.")
    boolean resume;

    @Option(names = "--interpolation", paramLabel = "MODE", description = "linear or nearest.")
    String interpolation;

    @Option(names = "--slices-per-pass", paramLabel = "K", description = "Slices interleaved per pass: 1, 2, 4, 8, 16.")
    String slicesPerPass;

    @Option(names = "--engine", paramLabel = "ENGINE", description = "direct (no Spark) or spark.")
    String engine;

    @Option(names = "--config", paramLabel = "FILE", description = "Properties file of config keys (see conf/CONFIG.md).")
    Path config;

    @Option(names = "--conf", paramLabel = "KEY=VALUE", description = "Any config key; repeatable.")
    List<String> conf = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        Settings s = settings();
        String in = s.get(JobKeys.INPUT);
        if ("demo".equals(dataset) || "demo".equals(in)) {
            // a plain absolute path: inputs are taken literally (Hadoop Path), so a file: URI's percent-encoding
            // (a space or '%' in java.io.tmpdir) would name another, missing file
            in = DemoInput.ensure(s).toAbsolutePath().toString();
        } else if (dataset != null) {
            throw new IllegalArgumentException("unknown dataset '" + dataset
                    + "': the only built-in dataset is 'demo'; use --input for files");
        }
        if (in.isBlank()) throw new IllegalArgumentException("no input: give --input URI or 'demo'");
        String out = s.get(JobKeys.OUTPUT);
        if (out.isBlank()) throw new IllegalArgumentException("no output: give --output URI");
        JobRequest req = new JobRequest(in, out, CoreKeys.params(s), s.get(JobKeys.OVERWRITE), s.get(JobKeys.RESUME),
                s.get(JobKeys.PREVIEW), s);
        String eng = s.get(JobKeys.ENGINE);
        // a centre sweep is one slice: always in this JVM
        if (eng.equals("spark") && s.get(CoreKeys.CENTER_SWEEP) == null) return EngineLauncher.runSpark(req);
        new DirectEngine(HadoopConf.create(), System.err).run(req);
        return 0;
    }

    public Settings settings() throws IOException {
        ConfigDocsCommand.registerAll(); // every key is known before a config file or --conf names it
        Settings s = Settings.empty();
        if (config != null) {
            if (!Files.isRegularFile(config)) throw new IllegalArgumentException(config + ": config file not found");
            try (Reader r = new FileReader(config.toFile())) {
                s = Settings.load(r, config.toString());
            }
        }
        for (String kv : conf) {
            int eq = kv.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("--conf expects KEY=VALUE, got '" + kv + "'");
            s = s.with(kv.substring(0, eq).trim(), kv.substring(eq + 1));
        }
        s = set(s, JobKeys.INPUT.name(), input);
        s = set(s, JobKeys.OUTPUT.name(), output);
        // the workflow options: the same mapping as the notebook API's
        s = WorkflowSettings.center(s, center);
        s = WorkflowSettings.centerMethod(s, centerMethod);
        s = WorkflowSettings.centerSweep(s, centerSweep);
        s = WorkflowSettings.stripe(s, stripe, null);
        s = WorkflowSettings.paganin(s, phaseEnergy, phaseDistance, pixelSize, deltaBeta);
        s = WorkflowSettings.roi(s, roi);
        if (halfAcquisition) s = WorkflowSettings.halfAcquisition(s, true);
        s = WorkflowSettings.binning(s, bin);
        s = set(s, CoreKeys.FILTER.name(), filter);
        s = set(s, CoreKeys.BACKEND.name(), backend);
        s = set(s, CoreKeys.SLICES.name(), slices);
        s = set(s, CoreKeys.INTERPOLATION.name(), interpolation);
        s = set(s, CoreKeys.SLICES_PER_PASS.name(), slicesPerPass);
        s = set(s, JobKeys.ENGINE.name(), engine);
        if (overwrite) s = s.with(JobKeys.OVERWRITE.name(), "true");
        if (resume) s = s.with(JobKeys.RESUME.name(), "true");
        return s;
    }

    private static Settings set(Settings s, String key, String v) {
        return v == null ? s : s.with(key, v);
    }
}
