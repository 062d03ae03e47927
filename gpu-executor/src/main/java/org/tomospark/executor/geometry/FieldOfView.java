package org.tomospark.executor.geometry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a circular cone-beam scan can reconstruct of a volume: the field of view, a cylinder about the rotation axis
 * whose radius the detector's nearer side edge sets (every projection sees it whole), and its complete-data region,
 * where every projection also sees a voxel's height (|z| ≤ (DSO − r)·h/DSD, h the half height of the detector to its
 * nearer edge, r the radius the volume reaches). Slices beyond that region are reconstructed with cone-beam artefacts
 * and are reported; a volume wider than the field of view is refused, saying how much of it would be truncated.
 */
public record FieldOfView(double radiusMm, double completeHalfHeightMm, List<Integer> incompleteSlices) {

    /** The radius about the rotation axis every projection sees, mm: set by the detector's side edge nearer the central ray. */
    public static double radiusMm(ConeGeometry g) {
        double halfWidth = Math.min(g.cu() + 0.5, g.cols() - 0.5 - g.cu()) * g.du();
        return halfWidth <= 0 ? 0 : g.dso() * Math.sin(Math.atan(halfWidth / g.dsd()));
    }

    public static FieldOfView of(ConeGeometry g, ConeVolume vol) {
        double radius = radiusMm(g);
        double volumeRadius = vol.n() * vol.voxel() / 2;
        if (volumeRadius > radius * (1 + 1e-9))
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "the volume is %.3f mm wide (cone.volume.size %d x cone.volume.voxel %.4f mm) but the detector sees a field of "
                            + "view of %.3f mm diameter at the axis (cone.du, cone.cu, cone.dso, cone.dsd): %.3f mm (%.1f%%) of its width "
                            + "would be truncated; lower cone.volume.voxel or cone.volume.size",
                    2 * volumeRadius, vol.n(), vol.voxel(), 2 * radius, 2 * (volumeRadius - radius),
                    100 * (volumeRadius - radius) / volumeRadius));
        double halfHeight = Math.min(g.cv() + 0.5, g.rows() - 0.5 - g.cv()) * g.dv();
        double reach = Math.min(vol.cornerRadius(), radius);
        double complete = Math.max(0, (g.dso() - reach) * halfHeight / g.dsd());
        List<Integer> outside = new ArrayList<>();
        for (int k = 0; k < vol.nz(); k++)
            if (Math.abs(vol.z(k)) > complete + 1e-9) outside.add(k);
        return new FieldOfView(radius, complete, List.copyOf(outside));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "field of view %.3f mm diameter, complete data for |z| <= %.3f mm, %d slices outside",
                2 * radiusMm, completeHalfHeightMm, incompleteSlices.size());
    }
}
