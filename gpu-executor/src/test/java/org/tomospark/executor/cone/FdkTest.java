package org.tomospark.executor.cone;

import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.util.ImageErrors;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FDK on the analytic phantom ({@link ConeScan}) against its voxel-averaged ground truth, against a double-precision
 * plain FDK written from the textbook ({@link PlainFdk}), short scan against full scan, and slabs against the whole.
 */
class FdkTest {
    /** Central slab: the 8 slices about z = 0. */
    private static final int C0 = 20, C1 = 28;

    record Quality(double relL2, double psnr, double scale) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "rel. L2 %.4f, PSNR %.2f dB, scale %.4f", relL2, psnr, scale);
        }
    }

    /**
     * Against the truth over slices [k0, k1), inside the field of view's inscribed circle: relative L2, PSNR (peak: the
     * truth's largest value) and the scale, the ratio of the means over voxels of the phantom's uniform interior (every
     * point of a voxel and of its neighbours inside the same ellipsoids).
     */
    static Quality quality(double[][] rec, float[][] truth, int k0, int k1) {
        int n = ConeScan.VOLUME.n();
        double num = 0, den = 0, peak = 0, count = 0, sr = 0, st = 0;
        for (int k = k0; k < k1; k++)
            for (int j = 1; j < n - 1; j++)
                for (int i = 1; i < n - 1; i++) {
                    double x = ConeScan.VOLUME.x(i), y = ConeScan.VOLUME.y(j);
                    if (x * x + y * y > 15.5 * 15.5) continue;
                    double t = truth[k][j * n + i], e = rec[k][j * n + i] - t;
                    num += e * e;
                    den += t * t;
                    peak = Math.max(peak, t);
                    count++;
                    if (uniform(truth, k, j, i, n)) {
                        sr += rec[k][j * n + i];
                        st += t;
                    }
                }
        return new Quality(Math.sqrt(num / den), 20 * Math.log10(peak / Math.sqrt(num / count)), sr / st);
    }

    private static boolean uniform(float[][] truth, int k, int j, int i, int n) {
        float t = truth[k][j * n + i];
        if (!(t > 0.19f * ConeScan.MU && t < 0.21f * ConeScan.MU)) return false;
        for (int dk = -1; dk <= 1; dk++) {
            int kk = Math.max(0, Math.min(truth.length - 1, k + dk));
            for (int dj = -1; dj <= 1; dj++)
                for (int di = -1; di <= 1; di++) if (truth[kk][(j + dj) * n + i + di] != t) return false;
        }
        return true;
    }

    static double[][] toDouble(float[][] f) {
        double[][] d = new double[f.length][];
        for (int k = 0; k < f.length; k++) {
            d[k] = new double[f[k].length];
            for (int i = 0; i < f[k].length; i++) d[k][i] = f[k][i];
        }
        return d;
    }

    @Test
    void fullScanMatchesTheGroundTruthAndThePlainFdk() {
        ConeScan scan = ConeScan.full();
        float[][] truth = ConeScan.truth();
        double[][] rec = toDouble(scan.reconstruct());
        double[][] plain = PlainFdk.reconstruct(scan.geometry, ConeScan.VOLUME, scan.projections, false);
        Quality whole = quality(rec, truth, 0, ConeScan.VOLUME.nz()), centre = quality(rec, truth, C0, C1);
        Quality plainWhole = quality(plain, truth, 0, ConeScan.VOLUME.nz()), plainCentre = quality(plain, truth, C0, C1);
        System.out.println("cone FDK, full scan, whole volume: " + whole + "; central slab: " + centre);
        System.out.println("plain double FDK, full scan, whole volume: " + plainWhole + "; central slab: " + plainCentre);
        assertEquals(1, centre.scale(), 0.02, "scale of the central slab");
        assertEquals(1, whole.scale(), 0.02, "scale of the whole volume");
        assertTrue(centre.psnr() > 25, "central slab PSNR " + centre);
        assertEquals(plainCentre.psnr(), centre.psnr(), 0.1, "the plain double FDK's PSNR, central slab");
        assertEquals(plainWhole.psnr(), whole.psnr(), 0.1, "the plain double FDK's PSNR, whole volume");
    }

    @Test
    void shortScanWithParkerWeightsComesWithinOneDecibelOfTheFullScan() {
        float[][] truth = ConeScan.truth();
        ConeScan s = ConeScan.shortScan();
        assertEquals(ConeGeometry.ScanKind.SHORT, s.geometry.scanKind("/exchange/theta"));
        Quality full = quality(toDouble(ConeScan.full().reconstruct()), truth, C0, C1);
        double[][] rec = toDouble(s.reconstruct());
        Quality shortQ = quality(rec, truth, C0, C1);
        Quality plain = quality(PlainFdk.reconstruct(s.geometry, ConeScan.VOLUME, s.projections, true), truth, C0, C1);
        System.out.println("cone FDK, short scan (201 degrees, Parker), central slab: " + shortQ + "; plain double FDK: " + plain);
        assertTrue(shortQ.psnr() > full.psnr() - 1, "short scan " + shortQ + " against full scan " + full);
        assertEquals(1, shortQ.scale(), 0.02, "scale of the short scan");
        assertEquals(plain.psnr(), shortQ.psnr(), 0.1, "the plain double FDK's PSNR, short scan");
        // the same range walked backwards: a ray's conjugate lies at the other sign of the fan angle
        Quality backwards = quality(toDouble(ConeScan.shortScanBackwards().reconstruct()), truth, C0, C1);
        System.out.println("cone FDK, short scan backwards (0 to -199.5 degrees), central slab: " + backwards);
        assertTrue(backwards.psnr() > full.psnr() - 1, "backwards short scan " + backwards + " against full scan " + full);
        assertEquals(1, backwards.scale(), 0.02, "scale of the backwards short scan");
    }

    /** The circular trajectory's column path against the general per-voxel path, on a slab in the band's middle. */
    @Test
    void theColumnPathEqualsTheGeneralPath() {
        ConeScan scan = ConeScan.full();
        FdkReconstructor r = new FdkReconstructor(scan.geometry, ConeScan.VOLUME, ConeScan.RAMLAK, "/exchange/theta");
        FdkBackprojector bp = new FdkBackprojector(scan.geometry, ConeScan.VOLUME);
        for (int[] slab : new int[][]{{0, 48}, {30, 37}}) {
            int[] band = r.band(slab[0], slab[1]);
            float[][] q = new float[scan.projections.length][];
            FdkFilter f = new FdkFilter(scan.geometry, ConeScan.RAMLAK, "/exchange/theta");
            for (int p = 0; p < q.length; p++) {
                q[p] = new float[band[1] * scan.geometry.cols()];
                System.arraycopy(scan.projections[p], band[0] * scan.geometry.cols(), q[p], 0, q[p].length);
                f.apply(p, q[p], 0, band[0], band[1]);
            }
            float[][] a = new float[slab[1] - slab[0]][ConeScan.VOLUME.pixels()], b = new float[a.length][ConeScan.VOLUME.pixels()];
            bp.backprojectColumns(q, band[0], band[1], slab[0], a);
            bp.backprojectGeneral(q, band[0], band[1], slab[0], b);
            for (int k = 0; k < a.length; k++)
                assertTrue(ImageErrors.relL2(a[k], b[k]) < 1e-6, "slice " + (slab[0] + k) + ": " + ImageErrors.relL2(a[k], b[k]));
        }
    }

    @Test
    void aSlabFromItsBandEqualsTheWholeVolumesSlices() {
        ConeScan scan = ConeScan.full();
        FdkReconstructor r = new FdkReconstructor(scan.geometry, ConeScan.VOLUME, ConeScan.RAMLAK, "/exchange/theta");
        float[][] whole = scan.reconstruct();
        int[] top = r.band(40, 48), mid = r.band(20, 28);
        assertTrue(mid[1] > 8 * 0.5 / 0.4, "the band is wider than the slab: " + mid[1] + " rows");
        assertTrue(top[1] > mid[1], "a slab near the top needs more rows (" + top[1] + ") than one in the middle (" + mid[1] + ")");
        for (int[] slab : new int[][]{{40, 48}, {20, 28}, {0, 5}}) {
            int[] band = r.band(slab[0], slab[1]);
            float[][] cut = new float[scan.projections.length][];
            for (int p = 0; p < cut.length; p++) {
                cut[p] = new float[band[1] * scan.geometry.cols()];
                System.arraycopy(scan.projections[p], band[0] * scan.geometry.cols(), cut[p], 0, cut[p].length);
            }
            float[][] part = r.slab(cut, band[0], band[1], slab[0], slab[1]);
            for (int k = slab[0]; k < slab[1]; k++)
                assertArrayEquals(whole[k], part[k - slab[0]], "slice " + k + " from rows " + band[0] + " + " + band[1]);
        }
    }
}
