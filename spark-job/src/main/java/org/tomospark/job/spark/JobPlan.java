package org.tomospark.job.spark;

import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.job.inputs.InputOptions;

import java.io.Serializable;
import java.util.BitSet;
import java.util.Map;

/**
 * What the driver broadcasts to every task: where to read and write, the parameters, the scan's metadata (with
 * the angles), the averaged flats/darks of the whole row range, the planned group size, the rows already
 * committed (skipped on --resume) and the Hadoop configuration.
 *
 * @param signature identifies parameters and geometry; executors key their cached processors by it
 */
public record JobPlan(String input, String format, InputOptions inputOptions, String output, ReconstructionParams params,
                      ScanMetadata meta, FlatDark fields, int rowStart, int rowEnd, int groupRows, BitSet skip,
                      Map<String, String> hadoopConf, SparkOptions spark, boolean localMode, String signature,
                      int previewSlice)
        implements Serializable {

    /** The most pixels of a middle slice sent back whole for the preview (64 MiB of float32); a larger one is read back. */
    static final long PREVIEW_SLICE_LIMIT = 1L << 24;

    /** Whether output slice {@code index} is already committed (--resume). */
    public boolean skipped(int index) {
        return skip.get(index);
    }

    /** Detector rows per output slice (bin.rows). */
    /**
     * Whether a task sends output slice {@code index} back whole: the run's middle slice, the preview's XY panel
     * ({@code previewSlice}, -1 for a run without a preview).
     */
    public boolean sendsWhole(int index) {
        return index == previewSlice;
    }

    public int rowBin() {
        return params.workflow().binRows();
    }
}
