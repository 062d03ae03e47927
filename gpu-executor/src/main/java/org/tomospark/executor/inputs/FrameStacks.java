package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.util.List;

/** Picks frames out of a band and joins bands of the same rows frame after frame. */
final class FrameStacks {
    private FrameStacks() {
    }

    /** The frames {@code frames} (indices into {@code band}), in that order. */
    static RawStack select(RawStack band, int[] frames) {
        int plane = band.rows() * band.width();
        int n = RawStack.samples(frames.length, band.rows(), band.width(), "frame selection");
        if (band.isUint16()) {
            short[] out = new short[n];
            for (int i = 0; i < frames.length; i++) System.arraycopy(band.uint16Data(), frames[i] * plane, out,
                    i * plane, plane);
            return RawStack.ofUint16(frames.length, band.rows(), band.width(), out);
        }
        float[] out = new float[n];
        for (int i = 0; i < frames.length; i++) System.arraycopy(band.floatData(), frames[i] * plane, out, i * plane,
                plane);
        return RawStack.ofFloat(frames.length, band.rows(), band.width(), out);
    }

    /** The frames of every part, in order; the parts share rows, width and sample type. */
    static RawStack concat(List<RawStack> parts) {
        if (parts.size() == 1) return parts.get(0);
        RawStack first = parts.get(0);
        int frames = parts.stream().mapToInt(RawStack::frames).sum();
        int n = RawStack.samples(frames, first.rows(), first.width(), "frame runs");
        int at = 0;
        if (first.isUint16()) {
            short[] out = new short[n];
            for (RawStack p : parts) {
                System.arraycopy(p.uint16Data(), 0, out, at, p.uint16Data().length);
                at += p.uint16Data().length;
            }
            return RawStack.ofUint16(frames, first.rows(), first.width(), out);
        }
        float[] out = new float[n];
        for (RawStack p : parts) {
            System.arraycopy(p.floatData(), 0, out, at, p.floatData().length);
            at += p.floatData().length;
        }
        return RawStack.ofFloat(frames, first.rows(), first.width(), out);
    }
}
