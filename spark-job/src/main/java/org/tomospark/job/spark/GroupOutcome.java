package org.tomospark.job.spark;

import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.job.outputs.OutputCommit;

import java.io.Serializable;
import java.util.List;

/**
 * What one task reports for its slice group: the committed slices (with checksums), its timings, and for each
 * committed slice the central row and column the driver's preview needs; for an iterative method, its residuals; and the
 * writers that committed its slices (the executor's, shared by its tasks); when the task began and ended (epoch
 * milliseconds, for the run's timeline); how long it waited for a place on its executor's conveyor, and how long it took
 * to get a device and a set-up processor (its first group on a device creates one: context, kernels, buffers); and how
 * long the task took to get the job's broadcast plan (fetched and deserialized by an executor's first task); and when its
 * group was on its device (epoch milliseconds, from its processor's start to its end: the GPUs' busy time).
 */
public record GroupOutcome(int group, int firstRow, int rows, List<OutputCommit.Committed> slices, long readNanos,
                           long preprocessNanos, long filterNanos, long backprojectNanos, long writeNanos, long updates,
                           PreprocessStats preprocess, String backend, String device, String variant, String executor,
                           int attempt, List<SliceProfile> profiles, Convergence convergence, String writers,
                           long startMillis, long endMillis, long queueNanos, long setupNanos, long planNanos,
                           long onDeviceMillis, long offDeviceMillis, int slicesFromFrames)
        implements Serializable {
    public GroupOutcome {
        profiles = profiles == null ? List.of() : List.copyOf(profiles);
        if (convergence == null) convergence = Convergence.none();
    }
}
