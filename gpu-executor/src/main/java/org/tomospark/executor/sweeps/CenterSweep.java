package org.tomospark.executor.sweeps;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preview.Annotated;
import org.tomospark.executor.preview.PngPreview;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Centre sweep: one slice reconstructed at a range of centres, each image labelled with its centre (in its
 * file name, {@link #fileName}), and a contact sheet: a grid of thumbnails sharing one grey window, the centre
 * printed under each. The ramp filter does not depend on the centre, so the sinogram is filtered once.
 */
public final class CenterSweep {
    private CenterSweep() {
    }

    /** One reconstruction of the sweep. */
    public record Image(double center, float[] pixels, int width, int height) {
        public String fileName() {
            return CenterSweep.fileName(center);
        }
    }

    /** {@code center_0296.50.tif}: the centre in pixels with two decimals, zero-padded so names sort by centre. */
    public static String fileName(double center) {
        return String.format(Locale.ROOT, "center_%07.2f.tif", center);
    }

    /**
     * @param sino    one −log sinogram (unfiltered), {@code scan.numProjections() × scan.detectorWidth()}
     * @param backend a backend after setup (validated here for each centre)
     */
    public static List<Image> reconstruct(float[] sino, ScanGeometry scan, SliceGeometry slice, FilterSpec filter,
                                          double[] centers, BackprojectionBackend backend) {
        float[] f = sino.clone();
        new RampFilter(scan.detectorWidth(), scan.numProjections(), filter).filterRows(f, scan.numProjections(), null);
        List<Image> out = new ArrayList<>();
        for (double c : centers) {
            if (c < 0 || c > scan.detectorWidth() - 1)
                throw new IllegalArgumentException("center.sweep: centre " + c + " lies outside the detector [0, "
                        + (scan.detectorWidth() - 1) + "]");
            ScanGeometry g = scan.withCenterOfRotation(c);
            backend.validate(new BackprojectionJob(g, slice, 1));
            float[][] px = {new float[slice.pixels()]};
            backend.process(new SliceBatch(0, new float[][]{f}, g.numProjections(), g.detectorWidth(), true), px);
            out.add(new Image(c, px[0], slice.roiCols(), slice.roiRows()));
        }
        return out;
    }

    /**
     * The sweep on a scan: the sinogram of detector row {@code row} goes through the same {@link Workflow}
     * stages as a normal run (phase retrieval with its halo, binning, stripe removal; half acquisition is
     * re-stitched for every centre, since the stitch depends on it), then is reconstructed at each centre.
     * Centres are in raw detector pixels (before binning); so are the labels.
     */
    public static List<Image> run(ProjectionSource src, ReconstructionParams params, int row, double[] centers,
                                  BackprojectionBackend backend) {
        ScanMetadata meta = src.metadata();
        if (row < 0 || row >= meta.rows())
            throw new IllegalArgumentException("center.sweep: row " + row + " outside the " + meta.rows() + " detector rows of "
                    + meta.source());
        ScanGeometry raw = params.scanGeometry(meta);
        int rb = params.workflow().binRows();
        int first = row / rb * rb;
        int rows = Math.min(rb, meta.rows() - first);
        double mid = centers[centers.length / 2];
        Workflow w0 = new Workflow(raw.withCenterOfRotation(mid), params);
        SliceGeometry slice = params.sliceGeometry(w0.effective().detectorWidth());
        Workflow.Band band = w0.read(src, first, rows);
        List<Image> out = new ArrayList<>();
        float[] sino = null;
        for (double c : centers) {
            if (c < 0 || c > raw.detectorWidth() - 1)
                throw new IllegalArgumentException("center.sweep: centre " + c + " lies outside the detector [0, "
                        + (raw.detectorWidth() - 1) + "]");
            Workflow w = new Workflow(raw.withCenterOfRotation(c), params);
            if (sino == null || params.workflow().halfAcquisition())
                sino = w.apply(band.projections(), band.fields(), band.haloAbove(), band.haloBelow(), src.dataName(), src.flatName())
                        .sinograms()[0];
            ScanGeometry g = w.effective();
            List<Image> one = reconstruct(sino, g, slice, params.algorithm().filter(), new double[]{g.centerOfRotation()}, backend);
            Image im = one.get(0);
            out.add(new Image(c, im.pixels(), im.width(), im.height()));
        }
        return out;
    }

    /** Contact sheet PNG: thumbnails at most {@code thumb} px wide, one grey window (percentiles 0.5–99.5 of all images). */
    public static BufferedImage contactSheet(List<Image> images, int thumb, String title) {
        if (images.isEmpty()) throw new IllegalArgumentException("center sweep: no images");
        int w = images.get(0).width(), h = images.get(0).height();
        double s = Math.min(1.0, thumb / (double) Math.max(w, h));
        int tw = Math.max(16, (int) Math.round(w * s)), th = Math.max(16, (int) Math.round(h * s));
        int cols = (int) Math.ceil(Math.sqrt(images.size()));
        int rows = (images.size() + cols - 1) / cols;
        int lh = Annotated.LABEL_HEIGHT, gap = 4;
        int tileW = Math.max(tw, 96);
        int sheetW = cols * (tileW + gap) + gap, sheetH = lh + rows * (th + lh + gap) + gap;
        float[] all = new float[images.size() * w * h];
        for (int i = 0; i < images.size(); i++) System.arraycopy(images.get(i).pixels(), 0, all, i * w * h, w * h);
        float[] win = PngPreview.window(all, 0.5, 99.5);
        BufferedImage sheet = Annotated.canvas(sheetW, sheetH);
        Annotated.label(sheet, 0, 0, sheetW, title + "  grey [" + Annotated.fmt(win[0]) + ", " + Annotated.fmt(win[1]) + "]");
        for (int i = 0; i < images.size(); i++) {
            int x = gap + (i % cols) * (tileW + gap), y = lh + gap + (i / cols) * (th + lh + gap);
            Image im = images.get(i);
            Annotated.draw(sheet, im.pixels(), w, h, win[0], win[1], x, y, tw, th);
            Annotated.label(sheet, x, y + th, tileW, String.format(Locale.ROOT, "c=%.2f", im.center()));
        }
        return sheet;
    }

    /** Where an image's thumbnail lies in a contact sheet: its origin (x, y) and size; its label lies below it. */
    public record Tile(int x, int y, int width, int height) {
    }

    /** The tile of image {@code i} in a sheet made by {@link #contactSheet} (for tests and tools). */
    public static Tile tileOrigin(int i, int n, int w, int h, int thumb) {
        double s = Math.min(1.0, thumb / (double) Math.max(w, h));
        int tw = Math.max(16, (int) Math.round(w * s)), th = Math.max(16, (int) Math.round(h * s));
        int cols = (int) Math.ceil(Math.sqrt(n));
        int tileW = Math.max(tw, 96), gap = 4, lh = Annotated.LABEL_HEIGHT;
        return new Tile(gap + (i % cols) * (tileW + gap), lh + gap + (i / cols) * (th + lh + gap), tw, th);
    }
}
