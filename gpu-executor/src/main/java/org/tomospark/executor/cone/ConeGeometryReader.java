package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ProjectionMatrix;
import org.tomospark.executor.inputs.DatasetValues;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;

import java.util.Arrays;
import java.util.Map;

/**
 * A DataExchange file's cone-beam geometry: the group {@code /geometry} with the scalar datasets {@code dso_mm},
 * {@code dsd_mm}, {@code du_mm}, {@code dv_mm}, {@code cu_px}, {@code cv_px} and an optional
 * {@code projection_matrices} [angles, 3, 4] (RabbitCT's convention, docs/cone-beam.md). Values the configuration
 * gives (the {@code cone.*} keys) take the place of the file's; where both give one and they differ, the geometry is
 * contradictory and refused, naming the key and the dataset. Errors name the file and the dataset.
 */
public final class ConeGeometryReader {
    public static final String GROUP = "/geometry";
    /** The scalar datasets, by the configuration key each corresponds to. */
    private static final Map<String, String> SCALARS = Map.of("cone.dso", "dso_mm", "cone.dsd", "dsd_mm", "cone.du", "du_mm",
            "cone.dv", "dv_mm", "cone.cu", "cu_px", "cone.cv", "cv_px");
    public static final String MATRICES = "projection_matrices";

    private ConeGeometryReader() {
    }

    /** Whether the file holds a {@value #GROUP} group. */
    public static boolean present(HdfFile hdf) {
        if (hdf == null) return false;
        try {
            return hdf.getByPath(GROUP) instanceof Group;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The geometry of a scan of {@code cols × rows} pixels at {@code thetaDeg}: the file's {@value #GROUP} completed or
     * overridden by {@code given} (keys {@code cone.dso} … {@code cone.cv}; absent or NaN: not given). {@code hdf} null:
     * an input without HDF5 metadata (a TIFF stack, raw binary), whose geometry the keys give alone.
     */
    public static ConeGeometry read(HdfFile hdf, String file, int cols, int rows, double[] thetaDeg, Map<String, Double> given) {
        Group g = present(hdf) ? (Group) hdf.getByPath(GROUP) : null;
        double[] v = new double[6];
        String[] keys = {"cone.dso", "cone.dsd", "cone.du", "cone.dv", "cone.cu", "cone.cv"};
        for (int i = 0; i < keys.length; i++) {
            String ds = SCALARS.get(keys[i]);
            Double fromFile = g == null ? null : scalar(g, ds, file);
            Double fromConf = given.get(keys[i]);
            if (fromConf != null && fromConf.isNaN()) fromConf = null;
            if (fromFile != null && fromConf != null && Double.compare(fromFile, fromConf) != 0)
                throw new IllegalArgumentException(file + ": contradictory geometry: config key " + keys[i] + "=" + fromConf + " but "
                        + GROUP + "/" + ds + " holds " + fromFile);
            v[i] = fromConf != null ? fromConf : fromFile != null ? fromFile : Double.NaN;
            if (Double.isNaN(v[i]))
                throw new IllegalArgumentException(file + ": the cone-beam geometry lacks " + keys[i] + ": set the config key or write "
                        + GROUP + "/" + ds);
        }
        ConeGeometry.Builder b = ConeGeometry.builder().dso(v[0]).dsd(v[1]).pixel(v[2], v[3]).centre(v[4], v[5]).detector(cols, rows)
                .anglesDeg(thetaDeg);
        if (g != null && g.getChildren().containsKey(MATRICES)) b.matrices(matrices(g, file, thetaDeg.length));
        return b.build();
    }

    private static Double scalar(Group g, String name, String file) {
        Node n = g.getChildren().get(name);
        if (n == null) return null;
        if (!(n instanceof Dataset d))
            throw new IllegalArgumentException(file + ": " + GROUP + "/" + name + " is not a dataset");
        Object o = DatasetValues.flat(d, file + ":" + GROUP + "/" + name);
        double[] a = numbers(o, file, GROUP + "/" + name);
        if (a.length != 1)
            throw new IllegalArgumentException(file + ": " + GROUP + "/" + name + " must be one number, holds " + a.length);
        return a[0];
    }

    private static ProjectionMatrix[] matrices(Group g, String file, int angles) {
        String path = GROUP + "/" + MATRICES;
        if (!(g.getChildren().get(MATRICES) instanceof Dataset d))
            throw new IllegalArgumentException(file + ": " + path + " is not a dataset");
        int[] dims = d.getDimensions();
        if (dims.length != 3 || dims[1] != 3 || dims[2] != 4)
            throw new IllegalArgumentException(file + ": " + path + " must be [angles, 3, 4], has shape " + Arrays.toString(dims));
        if (dims[0] != angles)
            throw new IllegalArgumentException(file + ": " + path + " holds " + dims[0] + " matrices for " + angles + " projections");
        double[] a = numbers(DatasetValues.flat(d, file + ":" + path), file, path);
        ProjectionMatrix[] m = new ProjectionMatrix[angles];
        for (int p = 0; p < angles; p++) m[p] = new ProjectionMatrix(Arrays.copyOfRange(a, p * 12, p * 12 + 12));
        return m;
    }

    private static double[] numbers(Object o, String file, String path) {
        if (o instanceof double[] d) return d;
        if (o instanceof float[] f) {
            double[] a = new double[f.length];
            for (int i = 0; i < f.length; i++) a[i] = f[i];
            return a;
        }
        if (o instanceof Double d) return new double[]{d};
        if (o instanceof Float f) return new double[]{f};
        throw new IllegalArgumentException(file + ": " + path + " must hold float32 or float64 values");
    }
}
