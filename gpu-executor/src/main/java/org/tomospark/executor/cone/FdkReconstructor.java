package org.tomospark.executor.cone;

import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import java.util.stream.IntStream;

/**
 * FDK for one z-slab of the volume in Java: the band of detector rows the slab needs ({@link SlabPlanner}) of every
 * projection is weighted and filtered ({@link FdkFilter}; skipped for projections that come filtered, as RabbitCT
 * supplies them) and back-projected ({@link FdkBackprojector}).
 */
public final class FdkReconstructor {
    private final ConeGeometry g;
    private final ConeVolume vol;
    private final FdkFilter filter;
    private final FdkBackprojector bp;

    /**
     * @param spec       the ramp filter's window, cutoff and padding; null: the projections come weighted and filtered
     * @param anglesName the angles' dataset or key, named when the scan is too short for FDK
     */
    public FdkReconstructor(ConeGeometry g, ConeVolume vol, FilterSpec spec, String anglesName) {
        this.g = g;
        this.vol = vol;
        this.filter = spec == null ? null : new FdkFilter(g, spec, anglesName);
        this.bp = new FdkBackprojector(g, vol);
    }

    /** The detector rows slices [k0, k1) read, {first, count}. */
    public int[] band(int k0, int k1) {
        return SlabPlanner.rows(g, vol, k0, k1);
    }

    /**
     * Slices [k0, k1) from projections of line integrals (−log of the flat/dark-corrected counts), each holding
     * detector rows [bandFirst, bandFirst + bandRows) of cols pixels; the projections are not changed.
     */
    public float[][] slab(float[][] projections, int bandFirst, int bandRows, int k0, int k1) {
        if (projections.length != g.numProjections())
            throw new IllegalArgumentException(projections.length + " projections for a geometry of " + g.numProjections());
        float[][] q = new float[projections.length][];
        IntStream.range(0, q.length).parallel().forEach(p -> {
            q[p] = projections[p].clone();
            if (filter != null) filter.apply(p, q[p], 0, bandFirst, bandRows);
        });
        float[][] out = new float[k1 - k0][vol.pixels()];
        bp.backproject(q, bandFirst, bandRows, k0, out);
        return out;
    }
}
