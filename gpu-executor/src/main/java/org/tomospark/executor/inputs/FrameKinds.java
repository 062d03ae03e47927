package org.tomospark.executor.inputs;

import java.util.ArrayList;
import java.util.List;

/**
 * Which frames of one detector dataset are projections, flat fields and dark fields, from an NXtomo {@code image_key}:
 * 0 projection, 1 flat field, 2 dark field, 3 invalid (left out). Frames of one kind are listed in file order, and also
 * as runs of consecutive frames, the pieces a reader fetches for the flats and darks.
 *
 * @param projections frame indices of the projections
 * @param flats       frame indices of the flat fields
 * @param darks       frame indices of the dark fields
 */
public record FrameKinds(int[] projections, int[] flats, int[] darks) {
    public static final int PROJECTION = 0, FLAT = 1, DARK = 2, INVALID = 3;

    /** A run of consecutive frames. */
    public record Run(int first, int count) {
    }

    /**
     * Sorts the frames by their key; any key other than 0..3 is an error naming {@code keyName} and the frame.
     *
     * @param keys    one key per frame
     * @param keyName the image_key dataset, for errors
     */
    public static FrameKinds of(long[] keys, String keyName) {
        List<Integer> p = new ArrayList<>(), f = new ArrayList<>(), d = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            long k = keys[i];
            if (k == PROJECTION) p.add(i);
            else if (k == FLAT) f.add(i);
            else if (k == DARK) d.add(i);
            else if (k != INVALID)
                throw new IllegalArgumentException(keyName + ": unknown image_key " + k + " at frame " + i
                        + "; NXtomo keys are 0 (projection), 1 (flat field), 2 (dark field) and 3 (invalid)");
        }
        return new FrameKinds(ints(p), ints(f), ints(d));
    }

    private static int[] ints(List<Integer> l) {
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The runs of consecutive frames among {@code frames} (ascending). */
    public static List<Run> runs(int[] frames) {
        List<Run> out = new ArrayList<>();
        int i = 0;
        while (i < frames.length) {
            int j = i + 1;
            while (j < frames.length && frames[j] == frames[j - 1] + 1) j++;
            out.add(new Run(frames[i], j - i));
            i = j;
        }
        return out;
    }

    /** Whether the projections are all frames [0, total), so a band of the dataset needs no selection. */
    public boolean projectionsAreAll(int total) {
        return projections.length == total;
    }

    @Override
    public int[] projections() {
        return projections.clone();
    }

    @Override
    public int[] flats() {
        return flats.clone();
    }

    @Override
    public int[] darks() {
        return darks.clone();
    }
}
