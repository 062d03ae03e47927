package org.tomospark.executor.phantom;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.ArrayList;
import java.util.List;

/**
 * A phantom made of ellipsoids, placed on the detector grid: {@code pixelsPerUnit} detector pixels per
 * phantom unit in x, y and z, centred on detector row {@code centreRow} and on the rotation axis.
 * Densities are multiplied by {@code attenuationScale}, giving attenuation per pixel.
 */
public final class Phantom3D {
    private final List<Ellipsoid> parts;
    private final double pixelsPerUnit;
    private final double centreRow;
    private final double rowsPerUnit;
    private final double attenuationScale;

    public Phantom3D(List<Ellipsoid> parts, double pixelsPerUnit, double centreRow, double attenuationScale) {
        this(parts, pixelsPerUnit, centreRow, pixelsPerUnit, attenuationScale);
    }

    /**
     * @param rowsPerUnit detector rows per phantom unit along z (may differ from the in-plane scale, to fit
     *                    a thin band of rows across the interesting part of the phantom)
     */
    public Phantom3D(List<Ellipsoid> parts, double pixelsPerUnit, double centreRow, double rowsPerUnit, double attenuationScale) {
        this.parts = List.copyOf(parts);
        this.pixelsPerUnit = pixelsPerUnit;
        this.centreRow = centreRow;
        this.rowsPerUnit = rowsPerUnit;
        this.attenuationScale = attenuationScale;
    }

    public Phantom3D withAttenuationScale(double a) {
        return new Phantom3D(parts, pixelsPerUnit, centreRow, rowsPerUnit, a);
    }

    /**
     * The 3-D modified Shepp–Logan phantom (Toft's contrast values on the 3-D ellipsoids of Kak &amp; Slaney;
     * rotations about z only, so every cross-section is exact). Slices at different heights differ: the
     * small ellipsoids above and below the centre come and go.
     */
    public static List<Ellipsoid> modifiedSheppLogan() {
        List<Ellipsoid> l = new ArrayList<>();
        l.add(new Ellipsoid(1.0, 0.6900, 0.920, 0.810, 0, 0, 0, 0));
        l.add(new Ellipsoid(-0.8, 0.6624, 0.874, 0.780, 0, -0.0184, 0, 0));
        l.add(new Ellipsoid(-0.2, 0.1100, 0.310, 0.220, 0.22, 0, 0, -18));
        l.add(new Ellipsoid(-0.2, 0.1600, 0.410, 0.280, -0.22, 0, 0, 18));
        l.add(new Ellipsoid(0.1, 0.2100, 0.250, 0.410, 0, 0.35, -0.15, 0));
        l.add(new Ellipsoid(0.1, 0.0460, 0.046, 0.050, 0, 0.1, 0.25, 0));
        l.add(new Ellipsoid(0.1, 0.0460, 0.046, 0.050, 0, -0.1, 0.25, 0));
        l.add(new Ellipsoid(0.1, 0.0460, 0.023, 0.050, -0.08, -0.605, 0, 0));
        l.add(new Ellipsoid(0.1, 0.0230, 0.023, 0.020, 0, -0.606, 0, 0));
        l.add(new Ellipsoid(0.1, 0.0230, 0.046, 0.020, 0.06, -0.605, 0, 0));
        return l;
    }

    /** Modified Shepp–Logan scaled so the unit circle spans {@code pixelsPerUnit} pixels. */
    public static Phantom3D sheppLogan(double pixelsPerUnit, double centreRow, double attenuationScale) {
        return new Phantom3D(modifiedSheppLogan(), pixelsPerUnit, centreRow, attenuationScale);
    }

    public double attenuationScale() {
        return attenuationScale;
    }

    /** Phantom z (units) of a detector row. */
    public double zOfRow(double row) {
        return (centreRow - row) / rowsPerUnit;
    }

    /** Cross-section ellipses at a detector row, in pixel units, density in attenuation per pixel. */
    public List<Ellipsoid.Ellipse> sliceEllipses(double row) {
        double z = zOfRow(row);
        List<Ellipsoid.Ellipse> out = new ArrayList<>();
        for (Ellipsoid e : parts) {
            Ellipsoid.Ellipse el = e.sliceAt(z);
            if (el != null)
                out.add(new Ellipsoid.Ellipse(el.density() * attenuationScale, el.a() * pixelsPerUnit, el.b() * pixelsPerUnit,
                        el.x0() * pixelsPerUnit, el.y0() * pixelsPerUnit, el.phi()));
        }
        return out;
    }

    /**
     * Exact sinogram of one detector row, {@code numProjections × width}: each detector pixel holds the
     * mean line integral over its width (pixelIntegrated) or the line integral through its centre.
     */
    public float[] sinogram(double row, ScanGeometry scan, boolean pixelIntegrated) {
        List<Ellipsoid.Ellipse> els = sliceEllipses(row);
        int w = scan.detectorWidth(), n = scan.numProjections();
        float[] out = new float[n * w];
        for (int p = 0; p < n; p++) {
            double th = scan.angleRad(p);
            double cor = scan.centerOfRotation() + scan.axisCorrection(p);
            for (int c = 0; c < w; c++) {
                double t = c - cor;
                double v = 0;
                for (Ellipsoid.Ellipse e : els)
                    v += pixelIntegrated ? e.meanLineIntegral(t - 0.5, t + 0.5, th) : e.lineIntegral(t, th);
                out[p * w + c] = (float) v;
            }
        }
        return out;
    }

    /**
     * Ground-truth slice at a detector row on the ROI of {@code slice}, each pixel the mean of
     * {@code supersample²} point samples (supersample 1: the pixel centre).
     */
    public float[] groundTruth(double row, SliceGeometry slice, int supersample) {
        List<Ellipsoid.Ellipse> els = sliceEllipses(row);
        float[] out = new float[slice.pixels()];
        double cx = slice.centerX(), cy = slice.centerY();
        for (int i = 0; i < slice.roiRows(); i++) {
            for (int j = 0; j < slice.roiCols(); j++) {
                double sum = 0;
                for (int a = 0; a < supersample; a++) {
                    for (int b = 0; b < supersample; b++) {
                        double di = (a + 0.5) / supersample - 0.5, dj = (b + 0.5) / supersample - 0.5;
                        double x = slice.roiCol() + j + dj - cx;
                        double y = cy - (slice.roiRow() + i + di);
                        for (Ellipsoid.Ellipse e : els) if (e.contains(x, y)) sum += e.density();
                    }
                }
                out[i * slice.roiCols() + j] = (float) (sum / (supersample * supersample));
            }
        }
        return out;
    }
}
