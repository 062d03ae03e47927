package org.tomospark.executor.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.Collection;

/**
 * Runs {@link JosephProjectorBenchmark} through JMH and prints GU/s per benchmark and k: forward + back counts two
 * projections per slice (one iteration's updates); forward, back and the FBP back-projection one each.
 */
public final class IterativeBench {
    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        Options opt = new OptionsBuilder().parent(cli).include(JosephProjectorBenchmark.class.getSimpleName()).build();
        Collection<RunResult> results = new Runner(opt).run();
        System.out.println();
        System.out.println("| operation | slices/pass | size | slices | ms/op | GU/s |");
        System.out.println("|---|---|---|---|---|---|");
        for (RunResult r : results) {
            String op = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            int size = Integer.parseInt(r.getParams().getParam("size"));
            int slices = Integer.parseInt(r.getParams().getParam("slices"));
            String k = op.equals("fbpBackproject") ? "8 (vector)" : r.getParams().getParam("k");
            double ms = r.getPrimaryResult().getScore(), err = r.getPrimaryResult().getScoreError();
            long updates = JosephProjectorBenchmark.updates(size, slices) * (op.equals("forwardAndBack") ? 2 : 1);
            System.out.printf("| %s | %s | %d | %d | %.1f ± %.1f | %.3f |%n", op, k, size, slices, ms, err, updates / (ms * 1e6));
        }
    }
}
