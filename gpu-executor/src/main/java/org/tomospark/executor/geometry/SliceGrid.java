package org.tomospark.executor.geometry;

import org.tomospark.executor.util.EnumIds;
import java.util.Map;

/**
 * Which pixel of an N-pixel slice edge the rotation axis goes through. Both put the axis at the same detector column
 * (the centre of rotation); they differ in where the slice's pixels lie around it, by half a pixel along each axis
 * when N is even (and not at all when N is odd).
 */
public enum SliceGrid {
    /** The axis at (N−1)/2, the middle of the grid, as ASTRA places it: the slice is symmetric about the axis. */
    ASTRA("astra"),
    /** The axis at pixel N//2 (integer division), as scikit-image's {@code radon}/{@code iradon} place it. */
    SKIMAGE("skimage");

    private final String id;

    SliceGrid(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The coordinate, in pixels from the first one, where the rotation axis lies on an edge of {@code n} pixels. */
    public double axisPixel(int n) {
        return this == ASTRA ? (n - 1) / 2.0 : n / 2;
    }

    public static SliceGrid parse(String s) {
        return EnumIds.parse(values(), SliceGrid::id, s, "slice grid", Map.of("scikit-image", "skimage"));
    }
}
