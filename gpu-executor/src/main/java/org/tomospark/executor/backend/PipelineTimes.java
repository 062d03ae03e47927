package org.tomospark.executor.backend;

/**
 * How well a device's pipeline was fed, summed over its batches: the seconds its compute stream was busy (timed by the
 * device itself), the host's seconds staging chunks for upload, the host's seconds waiting for chunks to come back, and
 * the seconds from each batch's start to its end. Compute over batch seconds is the device's busy fraction while it
 * held a group; what is missing went to filling and draining the pipeline, or to a host that staged more slowly than the
 * device computed. {@link #NONE} for backends without such a pipeline.
 */
public record PipelineTimes(long computeNanos, long stageNanos, long waitNanos, long batchNanos, long chunks) {
    public static final PipelineTimes NONE = new PipelineTimes(0, 0, 0, 0, 0);

    public PipelineTimes plus(PipelineTimes o) {
        return new PipelineTimes(computeNanos + o.computeNanos, stageNanos + o.stageNanos, waitNanos + o.waitNanos,
                batchNanos + o.batchNanos, chunks + o.chunks);
    }
}
