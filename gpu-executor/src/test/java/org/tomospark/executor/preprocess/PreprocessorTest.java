package org.tomospark.executor.preprocess;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PreprocessorTest {
    static final int W = 7, ROWS = 2, NPROJ = 5;

    /** Counts dark + gain·I0·exp(−p) for known p, flats dark + gain·I0. */
    static float[] counts(double[] p, double[] gain, double[] dark, double i0) {
        float[] c = new float[NPROJ * ROWS * W];
        for (int i = 0; i < c.length; i++) {
            int pix = i % (ROWS * W);
            c[i] = (float) (dark[pix] + gain[pix] * i0 * Math.exp(-p[i]));
        }
        return c;
    }

    @Test
    void flatDarkCorrectionAndLogRecoverLineIntegrals() {
        Random r = new Random(5);
        double[] p = new double[NPROJ * ROWS * W], gain = new double[ROWS * W], dark = new double[ROWS * W];
        for (int i = 0; i < p.length; i++) p[i] = r.nextDouble() * 3;
        for (int i = 0; i < gain.length; i++) {
            gain[i] = 0.8 + 0.4 * r.nextDouble();
            dark[i] = 90 + 20 * r.nextDouble();
        }
        float[] raw = counts(p, gain, dark, 30000);
        // two flat frames and two dark frames whose averages are the true fields
        float[] flats = new float[2 * ROWS * W], darks = new float[2 * ROWS * W];
        for (int i = 0; i < ROWS * W; i++) {
            flats[i] = (float) (dark[i] + gain[i] * 30000 - 50);
            flats[ROWS * W + i] = (float) (dark[i] + gain[i] * 30000 + 50);
            darks[i] = (float) (dark[i] - 3);
            darks[ROWS * W + i] = (float) (dark[i] + 3);
        }
        FlatDark fd = FlatDark.average(10, RawStack.ofFloat(2, ROWS, W, flats), RawStack.ofFloat(2, ROWS, W, darks), "flats", "darks");
        Preprocessor.Result res = Preprocessor.defaults().apply(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "data", "flats");
        assertEquals(ROWS, res.sinograms().length);
        for (int q = 0; q < NPROJ; q++)
            for (int row = 0; row < ROWS; row++)
                for (int c = 0; c < W; c++)
                    assertEquals(p[(q * ROWS + row) * W + c], res.sinograms()[row][q * W + c], 2e-4, "p=" + q + " row=" + row + " col="
                            + c);
        assertFalse(res.stats().anyRepairs());
    }

    @Test
    void uint16CountsAreReadUnsigned() {
        short[] raw = new short[NPROJ * ROWS * W];
        Arrays.fill(raw, (short) 40000); // above Short.MAX_VALUE
        short[] flat = new short[ROWS * W];
        Arrays.fill(flat, (short) 50000);
        FlatDark fd = FlatDark.average(0, RawStack.ofUint16(1, ROWS, W, flat), null, "flats", "darks");
        Preprocessor.Result res = Preprocessor.defaults().apply(RawStack.ofUint16(NPROJ, ROWS, W, raw), fd, "data", "flats");
        assertEquals(-Math.log(0.8), res.sinograms()[1][3], 1e-6);
    }

    /** An infinity far into a band (past the first block of projections) is found and repaired in its own row only. */
    @Test
    void infinitiesInLaterProjectionsAreRepairedFromTheirRow() {
        int nproj = 3 * Preprocessor.PROJECTIONS_PER_TASK, rows = 3, w = 8;
        float[] raw = new float[nproj * rows * w];
        for (int p = 0; p < nproj; p++)
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < w; c++) raw[(p * rows + r) * w + c] = 100f + 10 * c + r;
        int p = 2 * Preprocessor.PROJECTIONS_PER_TASK + 5;
        raw[(p * rows + 2) * w + 4] = Float.POSITIVE_INFINITY;
        float[] flat = new float[rows * w];
        Arrays.fill(flat, 1000f);
        FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, rows, w, flat), null, "flats", "darks");
        Preprocessor.Result res = new Preprocessor(1e-3f, 1e-6f, 0.1, true)
                .apply(RawStack.ofFloat(nproj, rows, w, raw), fd, "data", "flats");
        assertEquals(1, res.stats().repairedNonFinite());
        float left = (float) -Math.log((130f + 2) / 1000f), right = (float) -Math.log((150f + 2) / 1000f);
        assertEquals(0.5f * (left + right), res.sinograms()[2][p * w + 4], 1e-6);
        // the other rows' values are their own transmissions, untouched by any repair
        assertEquals((float) -Math.log((140f + 1) / 1000f), res.sinograms()[1][p * w + 4], 1e-6);
    }

    @Test
    void clampsCountsAndRepairsNaN() {
        float[] raw = new float[NPROJ * ROWS * W];
        Arrays.fill(raw, 500f);
        raw[3] = 0f;          // transmission 0 → clamped
        raw[W + 2] = Float.NaN; // repaired from neighbours (which are equal)
        float[] flat = new float[ROWS * W];
        Arrays.fill(flat, 1000f);
        FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, ROWS, W, flat), null, "flats", "darks");
        Preprocessor pp = new Preprocessor(1e-3f, 1e-6f, 0.1, true);
        Preprocessor.Result res = pp.apply(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "data", "flats");
        assertEquals(1, res.stats().clampedTransmission());
        assertEquals(1, res.stats().repairedNonFinite());
        assertEquals((float) -Math.log(1e-6), res.sinograms()[0][3], 1e-4);
        assertEquals((float) Math.log(2), res.sinograms()[1][2], 1e-6);
        for (float[] s : res.sinograms()) for (float v : s) assertTrue(Float.isFinite(v));
    }

    @Test
    void zeroFlatsAreRejectedNamingTheDataset() {
        float[] raw = new float[NPROJ * ROWS * W];
        Arrays.fill(raw, 500f);
        FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, ROWS, W, new float[ROWS * W]), null, "scan.h5:/exchange/data_white", "d");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Preprocessor.defaults().apply(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "scan.h5:/exchange/data",
                        "scan.h5:/exchange/data_white"));
        assertTrue(e.getMessage().contains("scan.h5:/exchange/data_white") && e.getMessage().contains("not above the dark"),
                e.getMessage());
    }

    @Test
    void partlyDeadFlatsBeyondTheLimitAreRejected() {
        float[] flat = new float[ROWS * W];
        Arrays.fill(flat, 1000f);
        flat[0] = flat[1] = 0; // 2 of 14 pixels = 14 % > 5 %
        FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, ROWS, W, flat), null, "white", "dark");
        float[] raw = new float[NPROJ * ROWS * W];
        Arrays.fill(raw, 500f);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Preprocessor.defaults().apply(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "data", "white"));
        assertTrue(e.getMessage().contains("preprocess.maxRepairFraction"), e.getMessage());
        // within a tolerant limit they are clamped and counted instead
        Preprocessor.Result ok = new Preprocessor(1e-3f, 1e-6f, 0.2, true)
                .apply(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "data", "white");
        assertEquals(2L * NPROJ, ok.stats().clampedDenominators());
    }

    @Test
    void nanInFlatsIsRejectedNamingTheDataset() {
        float[] flat = new float[ROWS * W];
        Arrays.fill(flat, 1000f);
        flat[5] = Float.NaN;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlatDark.average(0, RawStack.ofFloat(1, ROWS, W, flat), null, "scan.h5:/exchange/data_white", "d"));
        assertTrue(e.getMessage().startsWith("scan.h5:/exchange/data_white: frame 0 has a non-finite value"), e.getMessage());
    }

    @Test
    void nanFloodInProjectionsIsRejected() {
        float[] raw = new float[NPROJ * ROWS * W];
        Arrays.fill(raw, Float.NaN);
        float[] flat = new float[ROWS * W];
        Arrays.fill(flat, 1000f);
        FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, ROWS, W, flat), null, "w", "d");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Preprocessor.defaults().apply(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "scan.h5:/exchange/data", "w"));
        assertTrue(e.getMessage().contains("scan.h5:/exchange/data") && e.getMessage().contains("NaN/Inf"), e.getMessage());
        // the same by projection
        e = assertThrows(IllegalArgumentException.class,
                () -> Preprocessor.defaults().applyPerFrame(RawStack.ofFloat(NPROJ, ROWS, W, raw), fd, "scan.h5:/exchange/data", "w"));
        assertTrue(e.getMessage().contains("scan.h5:/exchange/data") && e.getMessage().contains("NaN/Inf"), e.getMessage());
    }

    @Test
    void wrongShapesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> RawStack.ofFloat(2, 2, 2, new float[7]));
        FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, 1, W, new float[W]), null, "w", "d");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Preprocessor.defaults().apply(RawStack.ofFloat(NPROJ, ROWS, W, new float[NPROJ * ROWS * W]), fd, "scan", "w"));
        assertTrue(e.getMessage().contains("scan: band is 2x7 but flats/darks are 1x7"), e.getMessage());
    }

    /**
     * By projection, the same values as by detector row, bit for bit, with the same counts: on noisy uint16 counts with
     * clamped transmissions, NaN and infinity repaired along their rows, over awkward sizes.
     */
    @Test
    void perFrameLayoutHoldsTheSameValuesAndCounts() {
        Random r = new Random(17);
        for (int[] size : new int[][]{{1, 1, 2}, {5, 3, 7}, {131, 4, 33}, {70, 9, 1}}) {
            int nproj = size[0], rows = size[1], w = size[2];
            float[] raw = new float[nproj * rows * w];
            for (int i = 0; i < raw.length; i++) raw[i] = 100 + r.nextInt(900);
            raw[raw.length / 3] = 0f;
            raw[raw.length / 2] = Float.NaN;
            raw[raw.length - 1] = Float.POSITIVE_INFINITY;
            float[] flat = new float[rows * w];
            for (int i = 0; i < flat.length; i++) flat[i] = 900 + r.nextInt(200);
            flat[0] = 0f;  // a dead flat pixel: the denominator is clamped
            FlatDark fd = FlatDark.average(0, RawStack.ofFloat(1, rows, w, flat), null, "flats", "darks");
            Preprocessor pp = new Preprocessor(1e-3f, 1e-6f, 1.0, true);
            RawStack band = RawStack.ofFloat(nproj, rows, w, raw);
            Preprocessor.Result byRow = pp.apply(band, fd, "data", "flats");
            Preprocessor.Frames byFrame = pp.applyPerFrame(band, fd, "data", "flats");
            assertEquals(byRow.stats(), byFrame.stats(), Arrays.toString(size));
            assertEquals(nproj, byFrame.frames().length);
            for (int p = 0; p < nproj; p++)
                for (int row = 0; row < rows; row++)
                    for (int c = 0; c < w; c++)
                        assertEquals(Float.floatToIntBits(byRow.sinograms()[row][p * w + c]),
                                Float.floatToIntBits(byFrame.frames()[p][row * w + c]),
                                "p=" + p + " row=" + row + " col=" + c + " of " + Arrays.toString(size));
        }
    }

    /**
     * The preflight's count equals what the correction counts and repairs, value for value: float data with NaN, both
     * infinities, zeros and negatives, uint16 counts below the dark, bands over several blocks of projections, with and
     * without −log; and a band with too many repairs is refused by both with the same message.
     */
    @Test
    void checkCountsWhatApplyRepairs() {
        Random rnd = new Random(11);
        int frames = 150, rows = 3, width = 37;
        float[] flat = new float[rows * width], dark = new float[rows * width];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = 1000 + rnd.nextInt(50);
            dark[i] = 90 + rnd.nextInt(20);
        }
        flat[5] = dark[5]; // a clamped denominator
        FlatDark fields = new FlatDark(7, rows, width, flat, dark);
        float[] f32 = new float[frames * rows * width];
        short[] u16 = new short[f32.length];
        float[] odd = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -3f, 50f};
        for (int i = 0; i < f32.length; i++) {
            f32[i] = rnd.nextInt(400) == 0 ? odd[rnd.nextInt(odd.length)] : 95 + rnd.nextInt(1000);
            u16[i] = (short) (rnd.nextInt(300) == 0 ? rnd.nextInt(100) : 100 + rnd.nextInt(900));
        }
        for (boolean log : new boolean[]{true, false})
            for (RawStack band : List.of(RawStack.ofFloat(frames, rows, width, f32), RawStack.ofUint16(frames, rows, width, u16))) {
                Preprocessor pre = new Preprocessor(1e-3f, 1e-6f, 0.5, log);
                PreprocessStats applied = pre.apply(band, fields, "data", "flats").stats();
                assertTrue(applied.clampedTransmission() > 0, "the data must clamp some transmissions");
                String what = (band.isUint16() ? "uint16" : "float32") + ", log " + log;
                assertEquals(applied, pre.check(band, fields, "data", "flats"), what);
                Preprocessor strict = new Preprocessor(1e-3f, 1e-6f, 1e-4, log);
                String a = assertThrows(IllegalArgumentException.class, () -> strict.apply(band, fields, "data", "flats")).getMessage();
                String c = assertThrows(IllegalArgumentException.class, () -> strict.check(band, fields, "data", "flats")).getMessage();
                assertEquals(a, c, what);
            }
    }
}
