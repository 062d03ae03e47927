package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.HashSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixed-point table of the Joseph kernels against the geometry it encodes: the walks the kernels take (kernels/
 * joseph.cu) reproduce the detector position t = off + j·cos − i·sin of every pixel (adjoint) and the position where a
 * ray crosses each image line (forward), computed here from ProjectionTables in double, over the
 * whole grid within 1e-7 pixel (a step is exact to 2^-33, a walk here takes at most 333 of them); the steps stay in
 * the ranges the kernels' windows rely on; the fields distinct places of the table.
 */
class JosephTablesTest {
    private static final double ONE = JosephTables.ONE;

    @ParameterizedTest(name = "{0} degrees")
    @ValueSource(doubles = {180, 360})
    void walksReproduceTheGeometry(double range) {
        double[] corr = new double[97];
        for (int p = 0; p < corr.length; p++) corr[p] = 0.6 * Math.sin(p * 1.3);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(301).anglesRange(range, corr.length).centerOfRotation(147.3)
                .axisCorrection(corr).build();
        SliceGeometry slice = new SliceGeometry(333, 290, 0, 0, 333, 290);
        ProjectionTables pt = new ProjectionTables(scan, slice);
        JosephTables t = new JosephTables(pt);
        Random rnd = new Random(4);
        for (int p = 0; p < pt.numProjections(); p++) {
            long[] f = new long[JosephTables.TAB];
            System.arraycopy(t.tab, p * JosephTables.TAB, f, 0, JosephTables.TAB);
            double c = pt.cos(p), s = pt.sin(p), o = pt.offset(p);
            int sgn = (int) f[JosephTables.VSGN];
            assertTrue(f[JosephTables.VSTEP] >= 0 && f[JosephTables.VSTEP] <= (long) ONE, "adjoint step in [0, 1] pixel");
            assertTrue(f[JosephTables.FRAY] >= (long) ONE && f[JosephTables.FRAY] <= (long) (ONE * Math.sqrt(2) + 1),
                    "rays 1 to sqrt(2) pixels apart");
            boolean flat = (f[JosephTables.FFLAGS] & JosephTables.FLAT) != 0;
            int fsgn = (f[JosephTables.FFLAGS] & JosephTables.NEGATIVE) != 0 ? -1 : 1;
            assertEquals(Math.abs(c) >= Math.abs(s), flat, "flat flag");
            for (int trial = 0; trial < 50; trial++) {
                int i = rnd.nextInt(slice.roiRows()), j = rnd.nextInt(slice.roiCols());
                long v = f[JosephTables.VOFF] + j * f[JosephTables.VCOS] - i * f[JosephTables.VSTEP];
                double t0 = o + j * c - i * s;
                assertEquals(sgn * t0, v / ONE, 1e-7, "adjoint walk at (" + i + ", " + j + "), projection " + p);
                int u = rnd.nextInt(scan.detectorWidth()), l = rnd.nextInt(flat ? slice.roiRows() : slice.roiCols());
                long w = f[JosephTables.FPOS0] + u * f[JosephTables.FRAY] + l * f[JosephTables.FLINE];
                // the pixel along line l whose detector position is u: flat, t(l, pos) = u; steep, t(pos, l) = u
                double pos = flat ? (u - o + l * s) / c : (o + l * c - u) / s;
                assertEquals(fsgn * pos, w / ONE, 1e-7, "forward walk of ray " + u + " at line " + l + ", projection " + p);
            }
            float ig = t.ftab[p * JosephTables.FTAB + JosephTables.IG];
            assertEquals(1 / Math.max(Math.abs(c), Math.abs(s)), ig, 1e-6);
        }
    }

    /** The table's fields (kernels/joseph.cuh) are distinct places of their table, and its flags distinct bits. */
    @Test
    void fieldsAreDistinctPlacesOfTheirTable() {
        List<Integer> tab = List.of(JosephTables.VOFF, JosephTables.VCOS, JosephTables.VSTEP, JosephTables.VSGN, JosephTables.FPOS0,
                JosephTables.FRAY, JosephTables.FLINE, JosephTables.FFLAGS);
        assertEquals(tab.size(), new HashSet<>(tab).size());
        for (int f : tab) assertTrue(f >= 0 && f < JosephTables.TAB, "field " + f);
        List<Integer> ftab = List.of(JosephTables.IG, JosephTables.IG2, JosephTables.W);
        assertEquals(ftab.size(), new HashSet<>(ftab).size());
        for (int f : ftab) assertTrue(f >= 0 && f < JosephTables.FTAB, "field " + f);
        assertEquals(1, Integer.bitCount(JosephTables.FLAT));
        assertEquals(1, Integer.bitCount(JosephTables.NEGATIVE));
        assertTrue(JosephTables.FLAT != JosephTables.NEGATIVE);
        assertEquals(Math.scalb(1.0, JosephTables.FRACTION_BITS), JosephTables.ONE);
    }

    /** Each product kernel's name (joseph_forward_cC_uU_aA_bB, joseph_back_cC_rR_bB) spells the facts it is chosen by. */
    @Test
    void kernelNamesSpellTheirFacts() {
        for (JosephKernels.Variant v : JosephKernels.FORWARD)
            assertEquals("joseph_forward_c" + v.c() + "_u" + v.perThread() + "_a" + v.a() + "_b" + v.b(), v.name());
        for (JosephKernels.Variant v : JosephKernels.BACK)
            assertEquals("joseph_back_c" + v.c() + "_r" + v.perThread() + "_b" + v.b(), v.name());
    }

    @Test
    void everyPassSizeHasAKernel() {
        for (int k = 1; k <= JosephKernels.THREADS; k++) {
            JosephKernels.Variant f = JosephKernels.choose(JosephKernels.FORWARD, k), b = JosephKernels.choose(JosephKernels.BACK, k);
            assertEquals(0, k % f.c());
            assertEquals(0, k % b.c());
            assertTrue((k / f.c()) * f.b() <= JosephKernels.THREADS && (k / b.c()) * b.b() <= JosephKernels.THREADS, "k=" + k);
        }
        assertEquals("joseph_forward_c8_u2_a2_b4", JosephKernels.choose(JosephKernels.FORWARD, 32).name());
        assertEquals("joseph_back_c4_r4_b16", JosephKernels.choose(JosephKernels.BACK, 12).name());
    }
}
