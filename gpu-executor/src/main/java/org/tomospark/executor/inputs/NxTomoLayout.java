package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.exceptions.HdfException;

import java.util.List;

/**
 * Where an NXtomo (NeXus) scan keeps its datasets: the detector frames, their {@code image_key} and the
 * {@code rotation_angle}, in the entry's instrument and sample groups, or else in its NXdata group ({@code data/}),
 * which the NXtomo definition lists as the default plot and which holds links to the same datasets. The entry is
 * {@code /entry}, or else the first top-level group whose NX_class is NXentry.
 *
 * @param data  path of the detector frames [frame, row, column]
 * @param keys  path of the image_key, one per frame
 * @param angle path of the rotation_angle, one per frame
 */
public record NxTomoLayout(String data, String keys, String angle) {

    /** The layout of {@code hdf}, or null if it holds no NXtomo entry with detector data and an image_key. */
    public static NxTomoLayout find(HdfFile hdf) {
        String entry = entry(hdf);
        if (entry == null) return null;
        String data = first(hdf, entry + "/instrument/detector/data", entry + "/data/data");
        String keys = first(hdf, entry + "/instrument/detector/image_key", entry + "/data/image_key");
        if (data == null || keys == null) return null;
        String angle = first(hdf, entry + "/sample/rotation_angle", entry + "/data/rotation_angle");
        return new NxTomoLayout(data, keys, angle == null ? entry + "/sample/rotation_angle" : angle);
    }

    private static String entry(HdfFile hdf) {
        if (node(hdf, "/entry") instanceof Group) return "/entry";
        for (Node n : hdf.getChildren().values())
            if (n instanceof Group g && "NXentry".equals(text(g.getAttribute("NX_class")))) return "/" + g.getName();
        return null;
    }

    /** The first of {@code paths} that holds a dataset; a virtual one (nxtomomill's detector data) counts. */
    private static String first(HdfFile hdf, String... paths) {
        for (String p : List.of(paths)) if (HdfDatasets.find(hdf, hdf.getFileAsPath() + "", p).isPresent()) return p;
        return null;
    }

    static Node node(HdfFile hdf, String path) {
        try {
            return hdf.getByPath(path);
        } catch (HdfException e) {
            return null;
        }
    }

    /** A string attribute's value (h5py writes them as scalars or one-element arrays), or null. */
    static String text(Attribute a) {
        if (a == null) return null;
        Object v = a.getData();
        if (v instanceof String s) return s;
        if (v instanceof String[] arr && arr.length == 1) return arr[0];
        return null;
    }
}
