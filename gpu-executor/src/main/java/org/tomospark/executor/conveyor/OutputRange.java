package org.tomospark.executor.conveyor;

import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.outputs.SampleCoding;

/**
 * Finds a uint16 output's range from the data ({@code output.range=auto}), once, before any slice is written: the
 * middle slice of the requested rows is reconstructed on the host's backend (the reference), with every other
 * parameter as the run has them (centre already resolved), and the coding takes its percentiles.
 */
public final class OutputRange {
    private OutputRange() {
    }

    /** {@code p} with its output range found, or {@code p} itself if it needs none. */
    public static ReconstructionParams resolve(ProjectionSource src, ReconstructionParams p) {
        SampleCoding coding = p.output().coding();
        if (!coding.pending()) return p;
        int[] range = p.rowRange(src.metadata());
        int bin = p.workflow().binRows();
        int row = (range[0] + range[1] - 1) / 2 / bin * bin;
        float[][] slice = new float[1][];
        ReconstructionParams one = p.toBuilder().backend(Backends.onHostCpus()).rows(row, Math.min(row + bin, src.metadata().rows()))
                .groupRows(0).build();
        VolumeReconstructor.run(src, one, (r, px, w, h) -> slice[0] = px.toArray(), null, null);
        return p.toBuilder().outputCoding(coding.resolved(slice[0])).build();
    }
}
