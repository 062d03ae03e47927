package org.tomospark.job.cli;

import org.tomospark.job.local.JobRequest;

/** Starts the Spark engine (the Spark application lives in org.tomospark.job.spark). */
final class EngineLauncher {
    private EngineLauncher() {
    }

    static int runSpark(JobRequest req) {
        throw new IllegalStateException("engine spark: not available in this build yet; use --engine direct");
    }
}
