package org.tomospark.job.cli;

import org.apache.hadoop.conf.Configuration;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.JobKeys;
import org.tomospark.job.WorkflowSettings;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.local.DemoInput;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code tomospark reconstruct [demo] --input URI --output URI [options]}. Settings come from the config
 * file, then {@code --conf key=value}, then the explicit options.
 */
@Command(name = "reconstruct", mixinStandardHelpOptions = true,
        description = "Reconstruct a scan (DataExchange HDF5, TIFF stack or raw binary; or the built-in demo) into float32 TIFF slices.")
public final class ReconstructCommand implements Callable<Integer> {

    /** The command line, which may have begun starting Spark while it was parsed. */
    @ParentCommand
    TomoCli parent;

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

    @Option(names = "--center-sweep", paramLabel = "START:END:STEP",
            description = "Reconstruct the middle slice at each centre into the output (center_CCCC.CC.tif per centre + "
            + "contact-sheet.png) instead of the volume.")
    String centerSweep;

    @Option(names = "--tv-weight-sweep", paramLabel = "F1,F2,...",
            description = "Reconstruct three slices by tv at each weight F times the default (1 = the default) into the output "
            + "(tv_rRRRRR_xFFFF.FFF.tif per slice and weight + tv-weight-sweep.png) instead of the volume.")
    String tvWeightSweep;

    @Option(names = "--overwrite", description = "Replace an existing reconstruction.")
    boolean overwrite;

    @Option(names = "--resume", description = "Keep committed slices, compute only the missing ones.")
    boolean resume;

    @Option(names = "--engine", paramLabel = "ENGINE", description = "direct (no Spark) or spark.")
    String engine;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Override
    public Integer call() throws IOException {
        Settings s = settings();
        Configuration hadoop = HadoopConf.create();
        KerberosLogin.login(s, hadoop);
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
        // a sweep is a few slices: always in this JVM
        if (eng.equals("spark") && s.get(CoreKeys.CENTER_SWEEP) == null && s.get(CoreKeys.TV_WEIGHT_SWEEP) == null)
            return EngineLauncher.runSpark(req, parent == null ? null : parent.sparkStart());
        new DirectEngine(hadoop, System.err).lastUseOfDevices().run(req);
        return 0;
    }

    public Settings settings() throws IOException {
        Settings s = scan.settings();
        s = ScanOptions.set(s, JobKeys.INPUT.name(), input);
        s = ScanOptions.set(s, JobKeys.OUTPUT.name(), output);
        s = WorkflowSettings.centerSweep(s, centerSweep);
        s = ScanOptions.set(s, CoreKeys.TV_WEIGHT_SWEEP.name(), tvWeightSweep);
        s = ScanOptions.set(s, JobKeys.ENGINE.name(), engine);
        if (overwrite) s = s.with(JobKeys.OVERWRITE.name(), "true");
        if (resume) s = s.with(JobKeys.RESUME.name(), "true");
        return s;
    }
}
