package org.tomospark.job.batch;

import java.util.Locale;

/** What a batch did with one scan. */
public enum ScanStatus {
    /** A new output, reconstructed whole. */
    RECONSTRUCTED,
    /** An unfinished output of this same run finished: its committed slices kept, the rest computed. */
    RESUMED,
    /** The output already held this reconstruction (same run signature, every slice verified): left untouched. */
    SKIPPED,
    /** An output made with other parameters or by an older version, replaced (--overwrite, --redo-if-version-below). */
    REDONE,
    /** An output made with other parameters, left as it is: only {@code --overwrite} replaces it. */
    OUTDATED,
    /** The scan could not be reconstructed; the error says why. Its committed slices, if any, are kept. */
    FAILED;

    /** Whether the scan's output now holds what the batch asked for. */
    public boolean ok() {
        return this != OUTDATED && this != FAILED;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
