package org.tomospark.job;

import org.apache.hadoop.fs.FSError;
import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backends.cuda.CudaException;
import org.tomospark.executor.backends.opencl.OpenClException;
import org.tomospark.job.outputs.OutputBusyException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The exit status of a command-line or spark-submit run, one scheme for every command. A scheduler can tell from
 * it whether to fix the command (2), wait or fix the machine (3), or resume (4).
 */
public enum ExitCode {
    /** The run finished, or there was nothing to do. */
    OK(0, "success, or nothing to do"),
    /** Unexpected: a bug. The stack trace is printed. */
    INTERNAL(1, "internal error (a bug: the stack trace is printed)"),
    /** The command, a config key or the input is wrong; nothing was written to the output. */
    BAD_INPUT(2, "bad usage, config value or input; the output was not touched"),
    /**
     * The machine or the output cannot serve the run: the backend asked for cannot run here or its device failed, the
     * output is claimed by another run, or a read or write failed (disk full, permissions). Fix that, then run again or
     * --resume.
     */
    ENVIRONMENT(3, "backend unavailable or its device failed, output in use by another run, or an I/O failure (disk full, "
            + "permissions)"),
    /** The run started and failed (a Spark task after its retries, a cancel): committed slices are kept for --resume. */
    RUN_FAILED(4, "the run failed or was cancelled after it started; committed slices are whole, finish with --resume"),
    /**
     * A batch ({@code tomospark reprocess}) ran to its end, and some of its scans failed or were left outdated; every
     * other scan is committed or was already done. batch-report.json says which and why; run it again to retry them.
     */
    SCANS_FAILED(5, "a batch ran, and some of its scans failed or were left outdated (batch-report.json says which); "
            + "the others are committed");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }

    /** The status for a failure, from its type (the first cause that decides it). */
    public static ExitCode of(Throwable t) {
        if (t instanceof RunFailedException) return RUN_FAILED;
        if (t instanceof BackendUnavailableException || t instanceof OutputBusyException || t instanceof UncheckedIOException
                || t instanceof IOException || t instanceof FSError || t instanceof CudaException || t instanceof OpenClException)
            return ENVIRONMENT;
        if (t instanceof IllegalArgumentException) return BAD_INPUT;
        return INTERNAL;
    }

    /** Whether a failure of this kind is expected, so its message suffices and no stack trace is printed. */
    public boolean expected() {
        return this != INTERNAL && this != OK;
    }
}
