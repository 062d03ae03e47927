package org.tomospark.executor.sweeps;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preview.Annotated;
import org.tomospark.executor.preview.PngPreview;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.IterativeReconstructor;
import org.tomospark.executor.iterative.TvWeight;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * TV weight sweep: a few slices reconstructed by {@link Algorithm#TV} at several weights, each weight a factor of the
 * data-scaled default ({@link TvWeight#automatic()}: factor 1 is what a run without iterative.tvWeight gives), each
 * image labelled by its row and factor in its file name ({@link #fileName}), and a grid PNG: one row of thumbnails per
 * slice, one column per weight, sharing one grey window. As the centre sweep does for the centre, it lets a user choose
 * the weight by eye on a few slices before the volume is run. The slices go through every workflow stage of a run.
 */
public final class TvWeightSweep {
    private TvWeightSweep() {
    }

    /** One reconstruction of the sweep: detector row, weight factor, and the weight λ it came to. */
    public record Image(int row, double factor, double weight, float[] pixels, int width, int height) {
        public String fileName() {
            return TvWeightSweep.fileName(row, factor);
        }
    }

    /** {@code tv_r00512_x0000.500.tif}: the row, and the factor with three decimals, zero-padded so names sort. */
    public static String fileName(int row, double factor) {
        return String.format(Locale.ROOT, "tv_r%05d_x%08.3f.tif", row, factor);
    }

    /** Up to three rows of the range [start, end): its quarter, middle and three-quarter rows, without repeats. */
    public static int[] rows(int start, int end) {
        int n = end - start;
        return IntStream.of(start + n / 4, start + (n - 1) / 2, start + 3 * n / 4).map(r -> Math.min(r, end - 1))
                .distinct().sorted().toArray();
    }

    /**
     * The sweep on a scan: the sinograms of {@code rows} (each through the run's {@link Workflow}), reconstructed by TV
     * with each factor of the default weight, on {@code backend}'s projector pair; the images row by row, each row's in
     * the order of the factors.
     */
    public static List<Image> run(ProjectionSource src, ReconstructionParams params, int[] rows, double[] factors,
                                  BackprojectionBackend backend) {
        ScanMetadata meta = src.metadata();
        ScanGeometry raw = params.scanGeometry(meta);
        Workflow w = new Workflow(raw, params);
        ScanGeometry scan = w.effective();
        SliceGeometry slice = params.sliceGeometry(scan.detectorWidth());
        int rb = params.workflow().binRows();
        float[][] sinos = new float[rows.length][];
        float[][] blanks = new float[rows.length][];
        boolean counts = ReconstructionParams.countsKept(params.workflow());
        for (int i = 0; i < rows.length; i++) {
            int row = rows[i];
            if (row < 0 || row >= meta.rows())
                throw new IllegalArgumentException("iterative.tvWeightSweep: row " + row + " outside the " + meta.rows()
                        + " detector rows of " + meta.source());
            int first = row / rb * rb;
            Workflow.Band band = w.read(src, first, Math.min(rb, meta.rows() - first));
            counts &= band.fields().measured();
            sinos[i] = w.apply(band.projections(), band.fields(), band.haloAbove(), band.haloBelow(), src.dataName(), src.flatName())
                    .sinograms()[0];
            float[] den = params.preprocessor().fields(band.fields(), src.flatName()).den();
            blanks[i] = new float[scan.detectorWidth()];
            System.arraycopy(den, band.haloAbove() * scan.detectorWidth(), blanks[i], 0, scan.detectorWidth());
        }
        IterativeParams base = params.algorithm().iterative();
        Image[][] made = new Image[rows.length][factors.length];
        for (int fi = 0; fi < factors.length; fi++) {
            double f = factors[fi];
            TvWeight weight = new TvWeight(f, true);
            IterativeParams it = new IterativeParams(Algorithm.TV, base.iterations(), 0, base.tolerance(),
                    base.stop(), base.relaxation(), weight, base.fbpStart());
            float[][] px = new float[rows.length][slice.pixels()];
            try (IterativeReconstructor r = new IterativeReconstructor(scan, slice, it, rows.length,
                    SliceGroupProcessor.projectors(backend, params), params.algorithm().filter())) {
                r.reconstruct(sinos, counts ? blanks : null, px);
            }
            for (int i = 0; i < rows.length; i++)
                made[i][fi] = new Image(rows[i], f, weight.lambda(counts ? blanks[i] : null, sinos[i], scan), px[i], slice.roiCols(),
                        slice.roiRows());
        }
        List<Image> out = new ArrayList<>();
        for (Image[] row : made) out.addAll(Arrays.asList(row));
        return out;
    }

    /**
     * The grid PNG: one row of thumbnails per slice, one column per factor, at most {@code thumb} px wide, one grey
     * window (percentiles 0.5–99.5 of all images), each labelled with its factor and weight, each row with its row.
     */
    public static BufferedImage grid(List<Image> images, int thumb, String title) {
        if (images.isEmpty()) throw new IllegalArgumentException("tv weight sweep: no images");
        int w = images.get(0).width(), h = images.get(0).height();
        int[] rowIds = images.stream().mapToInt(Image::row).distinct().sorted().toArray();
        double[] fs = images.stream().mapToDouble(Image::factor).distinct().toArray();
        double s = Math.min(1.0, thumb / (double) Math.max(w, h));
        int tw = Math.max(16, (int) Math.round(w * s)), th = Math.max(16, (int) Math.round(h * s));
        int lh = Annotated.LABEL_HEIGHT, gap = 4, tileW = Math.max(tw, 128);
        int sheetW = fs.length * (tileW + gap) + gap, sheetH = lh + rowIds.length * (th + 2 * lh + gap) + gap;
        float[] all = new float[images.size() * w * h];
        for (int i = 0; i < images.size(); i++) System.arraycopy(images.get(i).pixels(), 0, all, i * w * h, w * h);
        float[] win = PngPreview.window(all, 0.5, 99.5);
        BufferedImage sheet = Annotated.canvas(sheetW, sheetH);
        Annotated.label(sheet, 0, 0, sheetW, title + "  grey [" + Annotated.fmt(win[0]) + ", " + Annotated.fmt(win[1]) + "]");
        for (Image im : images) {
            int c = indexOf(fs, im.factor()), r = Arrays.binarySearch(rowIds, im.row());
            int x = gap + c * (tileW + gap), y = lh + gap + r * (th + 2 * lh + gap);
            Annotated.label(sheet, x, y, tileW, "row " + im.row());
            Annotated.draw(sheet, im.pixels(), w, h, win[0], win[1], x, y + lh, tw, th);
            Annotated.label(sheet, x, y + lh + th, tileW, String.format(Locale.ROOT, "x%.3g w=%.3g", im.factor(), im.weight()));
        }
        return sheet;
    }

    private static int indexOf(double[] values, double v) {
        for (int i = 0; i < values.length; i++) if (values[i] == v) return i;
        throw new IllegalArgumentException("no column for factor " + v);
    }
}
