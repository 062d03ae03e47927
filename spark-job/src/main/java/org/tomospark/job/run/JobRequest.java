package org.tomospark.job.run;

import org.tomospark.executor.config.Settings;
import org.tomospark.executor.pipeline.ReconstructionParams;

/** A resolved request: where from, where to, the algorithm parameters and the commit policy. */
public record JobRequest(String input, String output, ReconstructionParams params, boolean overwrite, boolean resume,
                         boolean preview, Settings settings) {
}
