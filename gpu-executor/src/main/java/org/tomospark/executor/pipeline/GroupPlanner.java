package org.tomospark.executor.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a row range into slice groups. Pure function: a group size is a multiple of the backend's slices
 * per pass (the last group may be shorter).
 */
public final class GroupPlanner {
    private GroupPlanner() {
    }

    /** A band of detector rows [start, start+rows). */
    public record Group(int index, int start, int rows) implements java.io.Serializable {
        public int end() {
            return start + rows;
        }
    }

    public static List<Group> plan(int start, int end, int groupRows, int slicesPerPass) {
        if (groupRows < 1) throw new IllegalArgumentException("group.rows must be >= 1, got " + groupRows);
        if (groupRows % slicesPerPass != 0)
            throw new IllegalArgumentException("group.rows (" + groupRows + ") must be a multiple of backend.slicesPerPass (" + slicesPerPass + ")");
        List<Group> l = new ArrayList<>();
        for (int s = start, i = 0; s < end; s += groupRows, i++) l.add(new Group(i, s, Math.min(groupRows, end - s)));
        return l;
    }
}
