package org.tomospark.job.local;

import org.apache.hadoop.conf.Configuration;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.io.PngPreview;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.executor.pipeline.VolumeReconstructor;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.job.io.Inputs;
import org.tomospark.job.io.SliceWriter;

import java.io.PrintStream;
import java.util.Map;

/**
 * Reconstructs in this JVM, without Spark: the same library and the same output layout as the Spark job.
 * Everything that can be checked is checked before the first slice is written: the input's metadata and
 * geometry, the flats and darks of every requested row, and the output (exists? writable?).
 */
public final class DirectEngine {
    private final Configuration hadoopConf;
    private final PrintStream log;

    public DirectEngine(Configuration hadoopConf, PrintStream log) {
        this.hadoopConf = hadoopConf;
        this.log = log;
    }

    /** Result of a run: the summary and the report written next to the slices. */
    public record Result(VolumeReconstructor.Summary summary, Map<String, Object> report, String output) {
    }

    public Result run(JobRequest req) {
        ReconstructionParams p = req.params();
        try (ProjectionSource src = Inputs.open(req.input(), hadoopConf)) {
            ScanMetadata meta = src.metadata();
            // validate geometry and rows before touching the output
            p.scanGeometry(meta);
            SliceGeometry sg = p.sliceGeometry(meta);
            int[] range = p.rowRange(meta);
            FlatDark.average(range[0], src.readFlats(range[0], range[1] - range[0]), src.readDarks(range[0], range[1] - range[0]),
                    src.flatName(), src.darkName());
            p.preprocessor().apply(src.readProjections(range[0], 1), FlatDark.average(range[0],
                    src.readFlats(range[0], 1), src.readDarks(range[0], 1), src.flatName(), src.darkName()), src.dataName(), src.flatName());

            SliceWriter writer = new SliceWriter(req.output(), hadoopConf);
            int existing = writer.countSlices();
            boolean complete = writer.exists("_SUCCESS");
            if ((existing > 0 || complete) && !req.overwrite() && !req.resume())
                throw new IllegalArgumentException(req.output() + ": output already holds " + existing + " slices"
                        + (complete ? " of a complete reconstruction" : "") + "; use --overwrite to replace them or --resume to complete them");
            writer.checkWritable();
            log.println("Input " + meta + "; reconstructing rows " + range[0] + ".." + (range[1] - 1) + " into "
                    + sg.roiCols() + "x" + sg.roiRows() + " slices");
            ProgressBar bar = new ProgressBar(log);
            int mid = (range[0] + range[1]) / 2;
            float[][] preview = new float[1][];
            try {
                VolumeReconstructor.Summary s = VolumeReconstructor.run(src, p, (row, px, w, h) -> {
                    writer.write(row, px, w, h);
                    if (row == mid) preview[0] = px;
                }, bar::update, req.resume() ? row -> writer.exists(SliceWriter.sliceName(row)) : null);
                if (req.preview() && preview[0] != null)
                    writer.writeBytes("preview.png", PngPreview.encode(preview[0], sg.roiCols(), sg.roiRows()));
                Map<String, Object> report = RunReport.build(req, s, "direct");
                writer.writeBytes("report.json", RunReport.toJson(report));
                writer.writeBytes("_SUCCESS", new byte[0]);
                log.print(RunReport.summary(req, s));
                return new Result(s, report, req.output());
            } finally {
                writer.cleanTemporary();
            }
        }
    }
}
