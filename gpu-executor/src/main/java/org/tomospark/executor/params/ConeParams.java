package org.tomospark.executor.params;

import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.FieldOfView;
import org.tomospark.executor.inputs.ScanMetadata;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;

/**
 * A cone-beam reconstruction's settings (the {@code cone.*} keys) and, once the driver has read the input, the geometry
 * and volume they resolve to ({@link ConeResolution}). Unset scalars are NaN, unset sizes 0: the input's
 * {@code /geometry} group gives the scalars; the volume's defaults follow from the geometry ({@link #resolve}).
 *
 * @param required    geometry=cone, or a cone.* key set: a cone-beam run whatever the input holds; else (geometry=auto)
 *                    cone-beam only when the input has a /geometry group
 * @param given       cone.dso … cone.cv by key; NaN where not given
 * @param size        voxels along x and y (cone.volume.size), 0: the widest the field of view holds
 * @param slices      voxels along z (cone.volume.slices), 0: the detector's height at the axis
 * @param voxel       voxel edge in mm (cone.volume.voxel), NaN: the detector pixel at the axis, du·DSO/DSD
 * @param prefiltered the projections come weighted and filtered (RabbitCT's): back-projected as they are
 * @param geometry    the resolved geometry, or null before the input is read
 * @param volume      the resolved volume, or null before the input is read
 */
public record ConeParams(boolean required, Map<String, Double> given, int size, int slices, double voxel, boolean prefiltered,
                         ConeGeometry geometry, ConeVolume volume) implements Serializable {

    public ConeParams {
        given = Map.copyOf(given);
        if (size < 0) throw new IllegalArgumentException("config key cone.volume.size must be >= 0, got " + size);
        if (slices < 0) throw new IllegalArgumentException("config key cone.volume.slices must be >= 0, got " + slices);
    }

    /** Settings alone, nothing resolved yet. */
    public static ConeParams of(boolean required, Map<String, Double> given, int size, int slices, double voxel,
                                boolean prefiltered) {
        return new ConeParams(required, given, size, slices, voxel, prefiltered, null, null);
    }

    public boolean resolved() {
        return geometry != null;
    }

    /**
     * These settings with the geometry read from the input and the volume it gives: unset sizes from the geometry, then
     * checked against the field of view (a volume wider than it is refused, saying how much would be truncated) and the
     * detector (every slice must see detector rows).
     */
    public ConeParams resolve(ConeGeometry g) {
        double s = Double.isNaN(voxel) ? g.du() * g.dso() / g.dsd() : voxel;
        if (!(s > 0) || Double.isInfinite(s))
            throw new IllegalArgumentException("config key cone.volume.voxel (mm) must be positive, got " + s);
        int n = size;
        if (n == 0) {
            n = (int) Math.floor(2 * FieldOfView.radiusMm(g) / s * (1 - 1e-9));
            if (n < 1)
                throw new IllegalArgumentException("the field of view (cone.du, cone.cu, cone.dso, cone.dsd) holds no voxel of "
                        + s + " mm (cone.volume.voxel)");
        }
        int nz = slices == 0 ? Math.max(1, (int) Math.floor(g.rows() * g.dv() * g.dso() / g.dsd() / s + 1e-9)) : slices;
        ConeVolume vol = new ConeVolume(n, nz, s);
        FieldOfView.of(g, vol);
        if (!prefiltered) g.scanKind(ConeResolution.ANGLES); // a scan too short for FDK is refused here, before any output
        for (int k : new int[]{0, nz - 1})
            if (SlabPlanner.rows(g, vol, k, k + 1)[1] == 0)
                throw new IllegalArgumentException("slice " + k + " of the volume (cone.volume.slices " + nz + " x cone.volume.voxel "
                        + s + " mm) lies beyond the detector's rows (cone.dv, cone.cv): no projection sees it");
        // a slab's band is one array of counts: the widest single slice's band must fit one
        int rows = SlabPlanner.maxRows(g, vol, 1);
        if ((long) g.numProjections() * g.cols() * rows > Integer.MAX_VALUE - 8)
            throw new IllegalArgumentException("the top and bottom slices of the volume (cone.volume.size " + n + ", cone.volume.slices "
                    + nz + " of cone.volume.voxel " + s + " mm) each need " + rows + " detector rows of all " + g.numProjections()
                    + " projections of " + g.cols() + " columns, more than one band holds (2^31 samples): reconstruct fewer or "
                    + "thinner slices (cone.volume.slices, cone.volume.voxel), or a narrower volume (cone.volume.size)");
        return new ConeParams(required, given, size, slices, voxel, prefiltered, g, vol);
    }

    /**
     * Host bytes one slab of {@code slices} slices holds at once, at its widest band ({@link SlabPlanner#maxRows}): the raw
     * band as read, the projections corrected from it (floats, filtered in place), and its slices.
     */
    public long slabHostBytes(ScanMetadata meta, int slices) {
        int raw = meta.sampleType() == ScanMetadata.SampleType.UINT16 ? 2 : 4;
        return bandSamples(meta, slices) * (raw + 4) + 4L * volume.pixels() * slices;
    }

    /**
     * Device bytes of one slab at most: its band of projections as floats, with the CUDA texture mode's half-precision
     * copies of it (pairs of halves, 4 bytes a sample; halves for the texture, and the texture's array, 2 bytes each),
     * and its slices as floats.
     */
    public long slabDeviceBytes(ScanMetadata meta, int slices) {
        return DEVICE_BYTES_PER_SAMPLE * bandSamples(meta, slices) + 4L * volume.pixels() * slices;
    }

    /** Device bytes of a band sample, {@link #slabDeviceBytes}: the float, its pair, its half and its texel. */
    static final int DEVICE_BYTES_PER_SAMPLE = 4 + 4 + 2 + 2;

    private long bandSamples(ScanMetadata meta, int slices) {
        return (long) meta.numProjections() * meta.width() * SlabPlanner.maxRows(geometry, volume, slices);
    }

    /**
     * The most slices per slab (a power of two, or the whole volume's height) whose {@link #slabHostBytes} fit in
     * {@code budget} and whose band fits one Java array; at least 1. Wider slabs read fewer detector rows twice: a slab's
     * band is wider than the slab by the cone's spread, which near the top and bottom of a tall volume is hundreds of rows.
     */
    public int largestSlab(ScanMetadata meta, long budget) {
        return largestSlab(meta, budget, Long.MAX_VALUE);
    }

    /** As {@link #largestSlab(ScanMetadata, long)}, and with its {@link #slabDeviceBytes} within {@code deviceBudget}. */
    public int largestSlab(ScanMetadata meta, long budget, long deviceBudget) {
        return largestSlab(meta, s -> budget, s -> deviceBudget);
    }

    /**
     * As above, with budgets that depend on the slab's slices (fewer, wider slabs run fewer tasks at once, each with more
     * of the memory).
     */
    public int largestSlab(ScanMetadata meta, IntToLongFunction budget, IntToLongFunction deviceBudget) {
        int best = 1;
        for (int s = 2; s <= volume.nz(); s = s < volume.nz() && 2 * s > volume.nz() ? volume.nz() : 2 * s) {
            if (bandSamples(meta, s) > Integer.MAX_VALUE - 8) break;
            // not a break: a wider slab may have a larger budget
            if (slabHostBytes(meta, s) > budget.applyAsLong(s) || slabDeviceBytes(meta, s) > deviceBudget.applyAsLong(s)) continue;
            best = s;
            if (s == volume.nz()) break;
        }
        return best;
    }

    /** The geometry, the volume and what the field of view makes of it, for report.json. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (!resolved()) return m;
        ConeGeometry g = geometry;
        m.put("dsoMm", g.dso());
        m.put("dsdMm", g.dsd());
        m.put("pixelMm", List.of(g.du(), g.dv()));
        m.put("centralRayPx", List.of(g.cu(), g.cv()));
        m.put("trajectory", g.hasMatrices() ? "projection matrices" : "circular");
        m.put("angularRangeDeg", Math.toDegrees(g.angularRange()));
        m.put("fanAngleDeg", Math.toDegrees(2 * g.fanHalfAngle()));
        m.put("redundancyWeights", prefiltered ? "none (prefiltered projections)"
                : g.scanKind(ConeResolution.ANGLES) == ConeGeometry.ScanKind.FULL ? "1/2 (full scan)" : "Parker (short scan)");
        m.put("prefiltered", prefiltered);
        m.put("volume", Map.of("size", volume.n(), "slices", volume.nz(), "voxelMm", volume.voxel()));
        FieldOfView fov = FieldOfView.of(g, volume);
        m.put("fieldOfViewDiameterMm", 2 * fov.radiusMm());
        m.put("completeDataHalfHeightMm", fov.completeHalfHeightMm());
        m.put("slicesOutsideCompleteData", ranges(fov));
        return m;
    }

    /** The incomplete slices as "a-b" runs. */
    static String ranges(FieldOfView fov) {
        StringBuilder b = new StringBuilder();
        int start = -1, prev = -2;
        for (int k : fov.incompleteSlices()) {
            if (k != prev + 1) {
                if (start >= 0) b.append(run(start, prev)).append(", ");
                start = k;
            }
            prev = k;
        }
        if (start >= 0) b.append(run(start, prev));
        return b.toString();
    }

    private static String run(int a, int b) {
        return a == b ? Integer.toString(a) : a + "-" + b;
    }
}
