package org.tomospark.job.cli;

import org.tomospark.executor.config.Settings;
import org.tomospark.job.ExitCode;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.ScanInputs;
import org.tomospark.job.batch.FindCenters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tomospark find-centers INPUT... --output TABLE}: every scan's centre by every method, for reprocess. */
@Command(name = "find-centers", mixinStandardHelpOptions = true,
        description = "Find the centre of rotation of every scan of folders, globs or @list files (one Spark task per "
                + "scan) by every automatic method, and write a JSON table for 'reprocess --table': the centre of "
                + "--center-method (vo by default) and each method's centre and score. Exit status 5 when some scan's "
                + "centre was not found.")
public final class FindCentersCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "INPUT",
            description = "A folder, a glob, @FILE or a scan, as for reprocess.")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--output", required = true, paramLabel = "URI", description = "The table to write (JSON).")
    String output;

    @Mixin
    ScanOptions scan = new ScanOptions();

    @Override
    public Integer call() throws IOException {
        Settings s = scan.settings().with(BatchKeys.INPUTS.name(), ScanInputs.join(inputs));
        return EngineLauncher.withContext("tomospark find-centers", sc -> {
            FindCenters.Result r = FindCenters.run(sc, s, output, System.err);
            return r.failed() == 0 ? ExitCode.OK.code() : ExitCode.SCANS_FAILED.code();
        });
    }
}
