package org.tomospark.job.run;

import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.job.outputs.OptionNames;

/**
 * A resolved request: where from, where to, the algorithm parameters and the commit policy, and how the user names
 * the policy's options (for the errors).
 */
public record JobRequest(String input, String output, ReconstructionParams params, boolean overwrite, boolean resume,
                         boolean preview, Settings settings, OptionNames names) {
    public JobRequest {
        if (names == null) names = OptionNames.CLI;
    }

    /** A request made on the command line (or with spark-submit). */
    public JobRequest(String input, String output, ReconstructionParams params, boolean overwrite, boolean resume,
                      boolean preview, Settings settings) {
        this(input, output, params, overwrite, resume, preview, settings, OptionNames.CLI);
    }
}
