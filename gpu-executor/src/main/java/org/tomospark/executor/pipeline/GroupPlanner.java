package org.tomospark.executor.pipeline;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans the rows of a run: the rows a binned run reconstructs, and their split into slice groups. Pure functions: a
 * group size is a multiple of the backend's slices per pass (the last group may be shorter).
 */
public final class GroupPlanner {
    private GroupPlanner() {
    }

    /** A band of detector rows [start, start+rows). */
    public record Group(int index, int start, int rows) implements Serializable {
        public int end() {
            return start + rows;
        }
    }

    /**
     * The detector rows a run reconstructs when {@code bin.rows} = {@code rowBin}: the requested range [start, end) cut
     * down to whole bins. An error names the key when the range does not start on a bin or holds no whole bin.
     */
    public static int[] binnedRange(int[] range, int rowBin) {
        if (range[0] % rowBin != 0)
            throw new IllegalArgumentException("bin.rows " + rowBin + ": the first row " + range[0]
                    + " must be a multiple of it");
        int requested = range[1] - range[0];
        int end = range[0] + requested / rowBin * rowBin;
        if (end <= range[0])
            throw new IllegalArgumentException("bin.rows " + rowBin + " exceeds the " + requested + " rows requested");
        return new int[]{range[0], end};
    }

    public static List<Group> plan(int start, int end, int groupRows, int slicesPerPass) {
        if (groupRows < 1) throw new IllegalArgumentException("group.rows must be >= 1, got " + groupRows);
        if (groupRows % slicesPerPass != 0)
            throw new IllegalArgumentException("group.rows (" + groupRows + ") must be a multiple of backend.slicesPerPass ("
                    + slicesPerPass + ")");
        List<Group> l = new ArrayList<>();
        for (int s = start, i = 0; s < end; s += groupRows, i++) l.add(new Group(i, s, Math.min(groupRows, end - s)));
        return l;
    }
}
