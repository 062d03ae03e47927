package org.tomospark.executor.pipeline;

import org.tomospark.executor.util.Cancellation;

/**
 * One algorithm's part of a slice group: what its corrected sinograms become. The stages before it (reading,
 * correction and the workflow) are shared; FBP ({@link FbpMethod}), gridrec ({@link GridrecMethod}) and the iterative
 * methods ({@link IterativeMethod}) each take over here. Cone beam has a processor of its own ({@link ConeSlabProcessor}).
 */
interface SinogramMethod extends AutoCloseable {
    /** The group's slices; stops, by a throw, once {@code cancel} says so. */
    GroupResult reconstruct(CorrectedGroup g, Cancellation cancel);

    @Override
    default void close() {
    }
}
