package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.params.WorkflowParams;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.phase.Paganin;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.FloatLog;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.stitch.HalfAcquisition;
import org.tomospark.executor.stripe.StripeRemoval;

import java.util.stream.IntStream;

/**
 * The sinogram stages between reading a slice group and filtering it, in this order:
 * <ol>
 *   <li>flat/dark correction; with Paganin, the transmission of every projection of the band (halo rows
 *   included) is phase-retrieved as a 2-D image, then −log is taken and the halo rows are dropped;</li>
 *   <li>binning: {@code binRows} detector rows, {@code binColumns} columns and {@code binProjections}
 *   consecutive projections are averaged (attenuation), so filtering, stripe removal, stitching and
 *   back-projection, the bulk of the work, run on the binned data;</li>
 *   <li>stripe removal, per sinogram;</li>
 *   <li>half-acquisition stitching (360° offset axis → 180° of a wider detector);</li>
 *   <li>scaling to the output unit ({@link ValueUnit}): attenuation per original detector pixel, or per metre,
 *   whatever the binning.</li>
 * </ol>
 * Geometry: binning maps column j' to the mean of columns b·j'…b·j'+b−1 (centre at b·j' + (b−1)/2), so the
 * centre becomes (c − (b−1)/2)/b; binned projections take the mean angle. Output slice k of a run with
 * {@code binRows = r} averages detector rows r·k … r·k+r−1 (the row range must start at a multiple of r;
 * trailing rows that do not fill a bin are not reconstructed).
 */
public final class Workflow {
    private final ScanGeometry raw, binned, effective;
    private final WorkflowParams wp;
    private final ReconstructionParams params;
    private final ConeParams cone;

    public Workflow(ScanGeometry raw, ReconstructionParams params) {
        this.raw = raw;
        this.params = params;
        this.cone = params.coneBeam();
        this.wp = params.workflow();
        this.binned = wp.binned(raw);
        this.effective = wp.effective(raw);
    }

    public ScanGeometry raw() {
        return raw;
    }

    /** After binning, before stitching. */
    public ScanGeometry binned() {
        return binned;
    }

    /** What the filter and back-projector see. */
    public ScanGeometry effective() {
        return effective;
    }

    public int rowBin() {
        return wp.binRows();
    }

    /**
     * Whether the flat/dark correction and −log are the only sinogram stages (no phase retrieval, binning, stripe
     * removal, stitching or scaling to another unit), so that a backend may do them on its device.
     */
    public boolean correctionOnly() {
        return cone == null && wp.paganin() == null && wp.binRows() == 1 && wp.binColumns() == 1 && wp.binProjections() == 1
                && !wp.stripe().active() && !wp.halfAcquisition() && wp.unit().sinogramScale(wp.binColumns()) == 1;
    }

    /** Extra detector rows a group reads above and below its own (Paganin's 2-D filter); 0 without phase retrieval. */
    public int haloRows() {
        return wp.paganin() == null ? 0 : wp.paganin().haloRows();
    }

    /** Sinograms in the effective geometry and what preprocessing counted. */
    public record Sinograms(float[][] sinograms, PreprocessStats stats) {
    }

    /**
     * @param band      projections of rows [firstRow − haloAbove, firstRow + rows + haloBelow)
     * @param fields    flats/darks of the same rows
     * @param haloAbove rows of {@code band} above the group (dropped after phase retrieval)
     * @param haloBelow rows below
     */
    public Sinograms apply(RawStack band, FlatDark fields, int haloAbove, int haloBelow, String dataName, String flatName) {
        int rows = band.rows() - haloAbove - haloBelow;
        if (rows < 1) throw new IllegalArgumentException(dataName + ": band of " + band.rows() + " rows has no rows besides its halo");
        if ((haloAbove > 0 || haloBelow > 0) && wp.paganin() == null)
            throw new IllegalArgumentException("halo rows are only read for phase retrieval (phase.energy etc.)");
        int n = raw.numProjections(), m = raw.detectorWidth();
        float[][] sinos;
        PreprocessStats stats;
        if (wp.paganin() == null) {
            Preprocessor.Result pre = params.preprocessor().apply(band, fields, dataName, flatName);
            sinos = pre.sinograms();
            stats = pre.stats();
        } else {
            Preprocessor.Result pre = new Preprocessor(params.correction().denominatorFloor(), params.correction().transmissionFloor(),
                    params.correction().maxRepairFraction(), false).apply(band, fields, dataName, flatName);
            float[][] tr = pre.sinograms(); // [row incl. halo][p·m + c], transmission
            int all = tr.length;
            Paganin pg = new Paganin(wp.paganin());
            float floor = params.correction().transmissionFloor();
            long[] clamped = new long[1];
            sinos = new float[rows][n * m];
            float[][] out = sinos;
            IntStream.range(0, n).parallel().forEach(p -> {
                float[] img = new float[all * m];
                for (int r = 0; r < all; r++) System.arraycopy(tr[r], p * m, img, r * m, m);
                pg.filter(img, all, m);
                long c = 0;
                for (int r = 0; r < rows; r++)
                    for (int j = 0; j < m; j++) {
                        float t = img[(r + haloAbove) * m + j];
                        if (!(t >= floor)) { t = floor; c++; }
                        out[r][p * m + j] = (float) -FloatLog.log(t);
                    }
                synchronized (clamped) { clamped[0] += c; }
            });
            PreprocessStats s = pre.stats();
            stats = new PreprocessStats(s.values(), s.clampedDenominators(), s.clampedTransmission() + clamped[0], s.repairedNonFinite());
        }
        sinos = binSinograms(sinos, n, m);
        int bn = binned.numProjections(), bm = binned.detectorWidth();
        if (wp.stripe().active())
            for (float[] s : sinos) StripeRemoval.apply(wp.stripe(), s, bn, bm);
        if (wp.halfAcquisition()) {
            float[][] st = new float[sinos.length][];
            for (int i = 0; i < sinos.length; i++) st[i] = HalfAcquisition.stitch(sinos[i], binned).sinogram();
            sinos = st;
        }
        scaleToUnit(sinos);
        return new Sinograms(sinos, stats);
    }

    /** Scales the sinograms so that their reconstruction is in {@link WorkflowParams#unit}, whatever the column binning. */
    void scaleToUnit(float[][] sinos) {
        double scale = wp.unit().sinogramScale(wp.binColumns());
        if (scale == 1) return;
        float f = (float) scale;
        IntStream.range(0, sinos.length).parallel().forEach(i -> {
            float[] s = sinos[i];
            for (int k = 0; k < s.length; k++) s[k] *= f;
        });
    }

    float[][] binSinograms(float[][] s, int n, int m) {
        int br = wp.binRows(), bc = wp.binColumns(), bp = wp.binProjections();
        if (br == 1 && bc == 1 && bp == 1) return s;
        int rows = s.length / br, bn = binned.numProjections(), bm = binned.detectorWidth();
        if (rows < 1) throw new IllegalArgumentException("bin.rows " + br + ": a slice group of " + s.length + " rows holds no full bin");
        float[][] out = new float[rows][bn * bm];
        float norm = 1f / (br * bc * bp);
        IntStream.range(0, rows).parallel().forEach(k -> {
            float[] o = out[k];
            for (int q = 0; q < br; q++) {
                float[] in = s[k * br + q];
                for (int p = 0; p < bn * bp; p++) {
                    int dst = (p / bp) * bm, src = p * m;
                    for (int j = 0; j < bm * bc; j++) o[dst + j / bc] += in[src + j];
                }
            }
            for (int i = 0; i < o.length; i++) o[i] *= norm;
        });
        return out;
    }

    // ---------------------------------------------------------------------------------------- driver side

    /** The parameters with the centre resolved, and what the search found (null if the centre was given). */
    public record CenterResolution(ReconstructionParams params, CenterFinder.Result found) {
    }

    /**
     * Resolves {@code center auto}: runs the configured method on up to 4 rows around the middle of the row
     * range (half acquisition: the correlation over every overlap of at least 8 columns) and returns the
     * parameters with that centre. Without {@code centerMethod}, returns the parameters unchanged.
     */
    public static CenterResolution resolveCenter(ProjectionSource src, ReconstructionParams p) {
        WorkflowParams w = p.workflow();
        if (w.centerMethod() == null) return new CenterResolution(p, null);
        ScanMetadata meta = src.metadata();
        CenterFinder.Result r;
        if (w.halfAcquisition()) {
            ScanGeometry g = p.scanGeometry(meta);
            int[] range = p.rowRange(meta);
            int n = Math.min(4, range[1] - range[0]);
            int start = (range[0] + range[1]) / 2 - n / 2;
            float[][] s = CenterSearch.sinograms(src, p.preprocessor(), Math.max(range[0], start), n);
            double c = HalfAcquisition.findAxis(s, g);
            r = new CenterFinder.Result(c, CenterFinder.Method.CORRELATION, Double.NaN);
        } else {
            r = CenterSearch.find(src, p, w.centerMethod(), 4, w.centerSearchRadius());
        }
        return new CenterResolution(p.toBuilder().center(r.center()).workflow(w.withCenterMethod(null)).build(), r);
    }

    /**
     * The raw rows a group reads: {@code count} detector rows from {@code from}, of which {@code above} halo rows precede
     * the group and {@code below} follow it. A cone-beam slab reads the band of rows its voxels project to, no halo.
     */
    public record HaloBand(int from, int count, int above, int below) {
    }

    /**
     * The raw rows a group [start, start+rows) reads with its halo, clipped to the detector; in cone beam, the band of
     * detector rows slices [start, start+rows) of the volume need ({@link SlabPlanner}).
     */
    public HaloBand haloBand(int start, int rows, int detectorRows) {
        if (cone != null) {
            int[] b = SlabPlanner.rows(cone.geometry(), cone.volume(), start, start + rows);
            return new HaloBand(b[0], b[1], 0, 0);
        }
        int h = haloRows();
        int from = Math.max(0, start - h), to = Math.min(detectorRows, start + rows + h);
        return new HaloBand(from, to - from, start - from, to - start - rows);
    }

    /** Reads a group's band with its halo and the matching averaged flats/darks. */
    public record Band(RawStack projections, FlatDark fields, int haloAbove, int haloBelow) {
    }

    public Band read(ProjectionSource src, int start, int rows) {
        HaloBand b = haloBand(start, rows, src.metadata().rows());
        RawStack band = src.readProjections(b.from(), b.count());
        FlatDark fd = src.readFlatDark(b.from(), b.count());
        return new Band(band, fd, b.above(), b.below());
    }
}
