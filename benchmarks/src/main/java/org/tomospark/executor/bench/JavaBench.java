package org.tomospark.executor.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Runs {@link JavaBackprojectBenchmark} through JMH and prints GU/s per mode, with the ratio to the
 * 1-slice scalar baseline measured in the same run. Extra arguments are JMH's (e.g. {@code -p size=2048}).
 */
public final class JavaBench {
    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        Options opt = new OptionsBuilder().parent(cli).include(JavaBackprojectBenchmark.class.getSimpleName()).build();
        Collection<RunResult> results = new Runner(opt).run();
        List<String[]> rows = new ArrayList<>();
        double base = Double.NaN;
        for (RunResult r : results) {
            int size = Integer.parseInt(r.getParams().getParam("size"));
            int slices = Integer.parseInt(r.getParams().getParam("slices"));
            String mode = r.getParams().getParam("mode");
            double ms = r.getPrimaryResult().getScore();
            double err = r.getPrimaryResult().getScoreError();
            double gups = JavaBackprojectBenchmark.updates(size, slices) / (ms * 1e6);
            if (mode.equals("1/scalar")) base = gups;
            rows.add(new String[]{mode, Integer.toString(size), Integer.toString(slices), String.format("%.1f ± %.1f", ms, err),
                    String.format("%.3f", gups)});
        }
        System.out.println();
        System.out.println("| mode (slices/pass, kernel) | size | slices | ms/op | GU/s | vs 1/scalar |");
        System.out.println("|---|---|---|---|---|---|");
        for (String[] r : rows) {
            double g = Double.parseDouble(r[4]);
            System.out.printf("| %s | %s | %s | %s | %s | %.2fx |%n", r[0], r[1], r[2], r[3], r[4], g / base);
        }
    }
}
