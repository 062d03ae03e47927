package org.tomospark.executor.preprocess;

import java.util.stream.IntStream;

/**
 * Flat/dark correction, −log and NaN/Inf repair of a band of projections, producing one sinogram per
 * detector row ({@code numProjections × width}, row-major).
 *
 * <p>transmission = (raw − dark) / (flat − dark). Denominators below {@code denominatorFloor} are clamped
 * to it; transmissions below {@code transmissionFloor} are clamped to it; both are counted. Non-finite
 * results (NaN in the data) are replaced by the mean of the nearest finite neighbours in the same row and
 * counted. If more than {@code maxRepairFraction} of the values needed repair, the band is rejected with an
 * error naming the dataset, since a mostly-clamped input means wrong flats or a wrong file.
 */
public final class Preprocessor {
    private final float denominatorFloor;
    private final float transmissionFloor;
    private final double maxRepairFraction;
    private final boolean takeLog;

    public Preprocessor(float denominatorFloor, float transmissionFloor, double maxRepairFraction, boolean takeLog) {
        if (!(denominatorFloor > 0)) throw new IllegalArgumentException("preprocess.denominatorFloor must be > 0");
        if (!(transmissionFloor > 0)) throw new IllegalArgumentException("preprocess.transmissionFloor must be > 0");
        if (!(maxRepairFraction >= 0 && maxRepairFraction <= 1))
            throw new IllegalArgumentException("preprocess.maxRepairFraction must be in [0, 1]");
        this.denominatorFloor = denominatorFloor;
        this.transmissionFloor = transmissionFloor;
        this.maxRepairFraction = maxRepairFraction;
        this.takeLog = takeLog;
    }

    public static Preprocessor defaults() {
        return new Preprocessor(1e-3f, 1e-6f, 0.05, true);
    }

    /** Result: sinograms[row][p·width + col] and the repair counts. */
    public record Result(float[][] sinograms, PreprocessStats stats) {
    }

    /** Result by projection: frames[p][row·width + col] and the repair counts. */
    public record Frames(float[][] frames, PreprocessStats stats) {
    }

    /**
     * The flat-field terms of a band, per (row, column): the dark field and the denominator flat − dark, clamped to
     * the floor ({@code clampedDenominators} counts the clamped pixels). Rejected here, naming the flat dataset, when
     * no pixel or too many pixels have a flat above the dark.
     */
    public record Fields(float[] dark, float[] den, long clampedDenominators) {
    }

    public Fields fields(FlatDark fields, String flatName) {
        int rows = fields.rows(), width = fields.width();
        float[] flats = fields.flats(), darks = fields.darks();
        float[] den = new float[rows * width];
        float[] dark = darks.clone();
        float floor = denominatorFloor;
        // rows in parallel, reading the arrays directly: a whole scan's fields are millions of values, prepared once,
        // early in a run, before the JIT has compiled this loop
        long clampedDen = IntStream.range(0, rows).parallel().mapToLong(r -> {
            long clamped = 0;
            for (int i = r * width; i < (r + 1) * width; i++) {
                float d = flats[i] - darks[i];
                if (!(d >= floor)) {
                    d = floor;
                    clamped++;
                }
                den[i] = d;
            }
            return clamped;
        }).sum();
        if (clampedDen == (long) rows * width)
            throw new IllegalArgumentException(flatName + ": flat field is not above the dark field at any pixel of detector rows "
                    + fields.rowStart() + ".." + (fields.rowStart() + rows - 1) + " (zero or missing flats?)");
        if (clampedDen > maxRepairFraction * rows * width)
            throw new IllegalArgumentException(flatName + ": flat - dark <= " + denominatorFloor + " at " + clampedDen + " of "
                    + (rows * width) + " pixels of detector rows " + fields.rowStart() + ".." + (fields.rowStart() + rows - 1)
                    + " (more than preprocess.maxRepairFraction=" + maxRepairFraction + ")");
        return new Fields(dark, den, clampedDen);
    }

    /** Transmissions below this are clamped to it before −log. */
    public float transmissionFloor() {
        return transmissionFloor;
    }

    /** Whether the result is −log of the transmission (false: the transmission itself, for phase retrieval). */
    public boolean takesLog() {
        return takeLog;
    }

    /**
     * The counts of a band preprocessed anywhere (here or on a device), checked against
     * {@code preprocess.maxRepairFraction}: a mostly clamped band means wrong flats or a wrong file.
     */
    public PreprocessStats stats(Fields f, long values, long frames, long clampedTr, long repaired, String dataName, FlatDark fields) {
        if (clampedTr + repaired > maxRepairFraction * values)
            throw new IllegalArgumentException(dataName + ": " + clampedTr + " transmissions <= 0 and " + repaired
                    + " NaN/Inf values among " + values + " in detector rows " + fields.rowStart() + ".."
                    + (fields.rowStart() + fields.rows() - 1) + " (more than preprocess.maxRepairFraction=" + maxRepairFraction + ")");
        return new PreprocessStats(values, f.clampedDenominators() * frames, clampedTr, repaired);
    }

    /** Projections per parallel task: a band of few rows still spreads over every core. */
    static final int PROJECTIONS_PER_TASK = 64;

    /**
     * @param projections band of projections, frames = number of projections
     * @param fields      averaged flats/darks of the same band
     * @param dataName    dataset or file named in errors
     * @param flatName    flat dataset named in errors
     */
    public Result apply(RawStack projections, FlatDark fields, String dataName, String flatName) {
        int nproj = projections.frames(), rows = projections.rows(), width = projections.width();
        Fields f = bandFields(projections, fields, dataName, flatName);
        // allocated (and so zeroed) on every core: one thread would spend as long zeroing a large band as the
        // correction takes
        float[][] sino = new float[rows][];
        IntStream.range(0, rows).parallel().forEach(r -> sino[r] = new float[nproj * width]);
        // rows x blocks of projections, each task writing its own part of one sinogram; the arithmetic per value is the
        // same whatever the split, so the result is too
        int blocks = (nproj + PROJECTIONS_PER_TASK - 1) / PROJECTIONS_PER_TASK;
        boolean[] nonFinite = new boolean[rows];
        long clampedTr = IntStream.range(0, rows * blocks).parallel().mapToLong(t -> {
            int r = t / blocks, p0 = (t % blocks) * PROJECTIONS_PER_TASK;
            RowCorrection.Counts n = correct(projections, f, r, p0, Math.min(nproj, p0 + PROJECTIONS_PER_TASK), sino[r]);
            if (n.nonFinite()) nonFinite[r] = true; // only ever set: tasks of one row may race to the same value
            return n.clamped();
        }).sum();
        // the repair pass reads only the rows that hold a NaN or an infinity
        long repaired = IntStream.range(0, rows).parallel()
                .mapToLong(r -> nonFinite[r] ? repairNonFinite(sino[r], nproj, width) : 0).sum();
        long values = (long) nproj * rows * width;
        return new Result(sino, stats(f, values, nproj, clampedTr, repaired, dataName, fields));
    }

    /**
     * What {@link #apply} counts for this band, without its sinograms: the transmissions it would clamp and the values it
     * would repair (NaN or infinite transmissions: with a positive floor, every other value's −log is finite), checked
     * against {@code maxRepairFraction} with apply's error. For the checks before a run, which only need to know that a
     * band is usable: no sinogram is allocated and no logarithm taken.
     */
    public PreprocessStats check(RawStack projections, FlatDark fields, String dataName, String flatName) {
        int nproj = projections.frames(), rows = projections.rows(), width = projections.width();
        Fields f = bandFields(projections, fields, dataName, flatName);
        float[] dark = f.dark(), den = f.den();
        short[] u16 = projections.uint16Data();
        float[] f32 = projections.floatData();
        int blocks = (nproj + PROJECTIONS_PER_TASK - 1) / PROJECTIONS_PER_TASK;
        long[] counts = IntStream.range(0, rows * blocks).parallel().mapToObj(t -> {
            int r = t / blocks, p0 = (t % blocks) * PROJECTIONS_PER_TASK, p1 = Math.min(nproj, p0 + PROJECTIONS_PER_TASK);
            float[] scratch = new float[width];
            long[] n = new long[2];
            for (int p = p0; p < p1; p++) {
                long[] row = RowCorrection.count(u16, f32, (p * rows + r) * width, dark, den, r * width, width, transmissionFloor,
                        scratch);
                n[0] += row[0];
                n[1] += row[1];
            }
            return n;
        }).reduce(new long[2], (a, b) -> new long[]{a[0] + b[0], a[1] + b[1]});
        return stats(f, (long) nproj * rows * width, nproj, counts[0], counts[1], dataName, fields);
    }

    /**
     * The same correction as {@link #apply}, value for value, laid out by projection instead of by detector row:
     * {@code frames[p][r·width + col]}, as a cone-beam back-projection reads them. The band is not needed afterwards, so
     * a caller holds the raw counts and one float per value, not a sinogram copy as well.
     */
    public Frames applyPerFrame(RawStack projections, FlatDark fields, String dataName, String flatName) {
        int nproj = projections.frames(), rows = projections.rows(), width = projections.width();
        Fields f = bandFields(projections, fields, dataName, flatName);
        float[][] frames = new float[nproj][];
        short[] u16 = projections.uint16Data();
        float[] f32 = projections.floatData();
        long[] clamped = new long[nproj];
        long repaired = IntStream.range(0, nproj).parallel().mapToLong(p -> {
            float[] out = new float[rows * width];
            boolean nonFinite = false;
            long c = 0;
            for (int r = 0; r < rows; r++) {
                RowCorrection.Counts n = RowCorrection.correct(u16, f32, (p * rows + r) * width, f.dark(), f.den(), r * width,
                        width, transmissionFloor, takeLog, out, r * width);
                c += n.clamped();
                nonFinite |= n.nonFinite();
            }
            clamped[p] = c;
            frames[p] = out;
            // the repair runs along detector rows, as in the sinogram layout
            return nonFinite ? repairNonFinite(out, rows, width) : 0;
        }).sum();
        long clampedTr = 0;
        for (long c : clamped) clampedTr += c;
        return new Frames(frames, stats(f, (long) nproj * rows * width, nproj, clampedTr, repaired, dataName, fields));
    }

    /** The band's flat-field terms, the band and its flats/darks checked to be the same rows and columns. */
    private Fields bandFields(RawStack projections, FlatDark fields, String dataName, String flatName) {
        if (fields.rows() != projections.rows() || fields.width() != projections.width())
            throw new IllegalArgumentException(dataName + ": band is " + projections.rows() + "x" + projections.width()
                    + " but flats/darks are " + fields.rows() + "x" + fields.width());
        return fields(fields, flatName);
    }

    /** Corrects projections [p0, p1) of band row r into its sinogram: the transmissions clamped, and any non-finite. */
    private RowCorrection.Counts correct(RawStack band, Fields f, int r, int p0, int p1, float[] out) {
        int rows = band.rows(), width = band.width();
        float[] dark = f.dark(), den = f.den();
        int fo = r * width;
        long clamped = 0;
        boolean nonFinite = false;
        short[] u16 = band.uint16Data();
        float[] f32 = band.floatData();
        for (int p = p0; p < p1; p++) {
            int src = (p * rows + r) * width;
            int dst = p * width;
            RowCorrection.Counts n = RowCorrection.correct(u16, f32, src, dark, den, fo, width, transmissionFloor, takeLog,
                    out, dst);
            clamped += n.clamped();
            nonFinite |= n.nonFinite();
        }
        return new RowCorrection.Counts(clamped, nonFinite);
    }

    /** Replaces non-finite values by the mean of the nearest finite neighbours in the same detector row. */
    static long repairNonFinite(float[] sino, int nproj, int width) {
        long n = 0;
        for (int p = 0; p < nproj; p++) {
            int base = p * width;
            for (int c = 0; c < width; c++) {
                if (Float.isFinite(sino[base + c])) continue;
                n++;
                float left = Float.NaN, right = Float.NaN;
                for (int l = c - 1; l >= 0; l--) if (Float.isFinite(sino[base + l])) { left = sino[base + l]; break; }
                for (int q = c + 1; q < width; q++) if (Float.isFinite(sino[base + q])) { right = sino[base + q]; break; }
                float v;
                if (Float.isFinite(left) && Float.isFinite(right)) v = 0.5f * (left + right);
                else if (Float.isFinite(left)) v = left;
                else if (Float.isFinite(right)) v = right;
                else v = 0f;
                sino[base + c] = v;
            }
        }
        return n;
    }
}
