package org.tomospark.job.cli;

import org.apache.hadoop.conf.Configuration;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.JobKeys;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.ScanInputs;
import org.tomospark.job.fs.HadoopConf;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tomospark reprocess INPUT... --output-root URI [options]}: every scan of the inputs reconstructed into its own
 * folder under the output root, in one Spark application (the batch keys, {@code batch.*}). The scan options are
 * {@code reconstruct}'s and are every scan's defaults; {@code --table} overrides them per scan.
 */
@Command(name = "reprocess", mixinStandardHelpOptions = true,
        description = "Reconstruct every scan of folders, globs or @list files (any Hadoop file system) in one Spark "
                + "application, one output folder per scan under --output-root. Scans already done are skipped, "
                + "unfinished ones resumed, failed ones reported; writes batch-report.json. Exit status: 0 every scan "
                + "done or skipped, 5 some scans failed or were left outdated, 2 or 3 the batch could not run.")
public final class ReprocessCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "A folder (its *.h5, *.hdf5, *.hdf, *.nxs files: "
            + "batch.extensions), a glob (quote it: 'hdfs://nn/scans/2026-*/scan_*.h5'), @FILE (a list, one scan per "
            + "line) or a scan.")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--output-root", required = true, paramLabel = "URI",
            description = "Where the outputs go: ROOT/NAME per scan, NAME the scan's file name without its extension.")
    String outputRoot;

    @Option(names = "--table", paramLabel = "FILE", description = "Per-scan parameters: CSV 'file,KEY,...', JSON "
            + "{\"FILE\": {\"KEY\": VALUE}} or tomopy-cli's rotation_axis.json (centres). Scans it does not name "
            + "take the batch's options (e.g. --center auto).")
    String table;

    @Option(names = "--scans-in-flight", paramLabel = "N",
            description = "Scans whose Spark jobs run at once (batch.scansInFlight).")
    String scansInFlight;

    @Option(names = "--overwrite", description = "Reconstruct again outputs made with other parameters (else reported "
            + "as outdated and left alone). Outputs that already hold this reconstruction are skipped all the same.")
    boolean overwrite;

    @Option(names = "--redo-if-version-below", paramLabel = "VERSION",
            description = "Reconstruct again complete outputs made by a tomospark version below VERSION.")
    String redoIfVersionBelow;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Override
    public Integer call() throws IOException {
        Settings s = settings();
        Configuration hadoop = HadoopConf.create();
        KerberosLogin.login(s, hadoop);
        return EngineLauncher.runBatch(s);
    }

    Settings settings() throws IOException {
        Settings s = scan.settings();
        s = s.with(BatchKeys.INPUTS.name(), ScanInputs.join(inputs));
        s = s.with(BatchKeys.OUTPUT_ROOT.name(), outputRoot);
        s = ScanOptions.set(s, BatchKeys.TABLE.name(), table);
        s = ScanOptions.set(s, BatchKeys.SCANS_IN_FLIGHT.name(), scansInFlight);
        s = ScanOptions.set(s, BatchKeys.REDO_IF_VERSION_BELOW.name(), redoIfVersionBelow);
        if (overwrite) s = s.with(JobKeys.OVERWRITE.name(), "true");
        return s;
    }
}
