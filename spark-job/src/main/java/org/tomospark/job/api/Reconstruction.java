package org.tomospark.job.api;

import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.job.io.InputOptions;
import org.tomospark.job.spark.SparkJobSpec;
import org.tomospark.job.spark.SparkOptions;
import org.tomospark.job.spark.SparkReconstruction;

import java.util.List;
import java.util.Map;

/**
 * A small builder for notebooks (Zeppelin {@code %spark}, Jupyter with a JVM kernel) that runs a
 * reconstruction on the session's SparkContext:
 * <pre>{@code
 * val r = Reconstruction.builder(spark).input("hdfs://nn/scans/a.h5").output("hdfs://nn/rec/a")
 *           .center(296).filter("shepp-logan").backend("auto").run()
 * r.output(); r.report()
 * }</pre>
 */
public final class Reconstruction {
    private Reconstruction() {
    }

    /** From a SparkSession (Scala or Java; taken reflectively, since this module does not depend on Spark SQL). */
    public static Builder builder(Object sparkSessionOrContext) {
        if (sparkSessionOrContext instanceof SparkContext sc) return new Builder(sc);
        if (sparkSessionOrContext instanceof JavaSparkContext jsc) return new Builder(jsc.sc());
        try {
            Object sc = sparkSessionOrContext.getClass().getMethod("sparkContext").invoke(sparkSessionOrContext);
            return new Builder((SparkContext) sc);
        } catch (ReflectiveOperationException | ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException("Reconstruction.builder: expected a SparkSession, SparkContext or JavaSparkContext, got "
                    + (sparkSessionOrContext == null ? "null" : sparkSessionOrContext.getClass().getName()), e);
        }
    }

    /** The output directory, the run report (as in report.json) and its printed summary. */
    public record Result(String output, Map<String, Object> report, String summary, int slicesComputed, int slicesSkipped) {
        @Override
        public String toString() {
            return summary;
        }
    }

    public static final class Builder {
        private final SparkContext sc;
        private String input, output;
        private final ReconstructionParams.Builder params = ReconstructionParams.builder();
        private BackendOptions backendOptions = BackendOptions.defaults();
        private InputOptions inputOptions = InputOptions.defaults();
        private SparkOptions spark = SparkOptions.defaults().withProgress(false);
        private boolean overwrite, resume, preview;

        Builder(SparkContext sc) {
            this.sc = sc;
        }

        public Builder input(String uri) { this.input = uri; return this; }
        public Builder output(String uri) { this.output = uri; return this; }
        public Builder center(double c) { params.center(c); return this; }
        public Builder filter(String window) { params.filter(FilterSpec.of(FilterWindow.parse(window))); return this; }
        public Builder filter(FilterSpec f) { params.filter(f); return this; }
        public Builder backend(String id) { params.backend(id); return this; }
        public Builder slices(int start, int end) { params.rows(start, end); return this; }
        public Builder groupRows(int rows) { params.groupRows(rows); return this; }
        public Builder angles(double startDeg, double stepDeg) { params.angles(startDeg, stepDeg); return this; }
        public Builder sliceSize(int n) { params.sliceSize(n); return this; }
        public Builder slicesPerPass(int k) { backendOptions = backendOptions.withSlicesPerPass(k); return this; }
        public Builder devices(String... addresses) { spark = spark.withDevices(List.of(addresses)); return this; }
        public Builder inputOptions(InputOptions o) { this.inputOptions = o; return this; }
        public Builder rawVolume(boolean r) { spark = spark.withOutputRaw(r); return this; }
        public Builder progress(boolean p) { spark = spark.withProgress(p); return this; }
        public Builder preview(boolean p) { this.preview = p; return this; }
        public Builder overwrite() { this.overwrite = true; return this; }
        public Builder resume() { this.resume = true; return this; }
        public Builder params(ReconstructionParams p) {
            ReconstructionParams.Builder b = p.toBuilder();
            return copy(b, p);
        }

        private Builder copy(ReconstructionParams.Builder b, ReconstructionParams p) {
            ReconstructionParams q = b.build();
            params.backend(q.backend()).filter(q.filter()).center(q.center()).sliceSize(q.sliceSize()).groupRows(q.groupRows())
                    .rows(q.rowStart(), q.rowEnd()).axisCorrection(q.axisCorrection()).denominatorFloor(q.denominatorFloor())
                    .transmissionFloor(q.transmissionFloor()).maxRepairFraction(q.maxRepairFraction());
            if (!Double.isNaN(q.angleStartDeg())) params.angles(q.angleStartDeg(), q.angleStepDeg());
            if (q.roi() != null) params.roi(q.roi()[0], q.roi()[1], q.roi()[2], q.roi()[3]);
            backendOptions = q.backendOptions();
            return this;
        }

        public SparkJobSpec spec() {
            return new SparkJobSpec(input, output, params.backendOptions(backendOptions).build(), overwrite, resume, preview,
                    inputOptions, spark, Map.of());
        }

        public Result run() {
            SparkReconstruction.Result r = SparkReconstruction.run(sc, spec(),
                    spark.progress() ? SparkReconstruction.printer(System.out) : null);
            return new Result(r.output(), r.report(), r.summary(), r.slicesComputed(), r.slicesSkipped());
        }
    }
}
