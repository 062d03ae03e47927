package org.tomospark.executor.params;

import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;

import java.io.Serializable;

/**
 * How the slices are computed: the method and where it runs.
 *
 * @param backend        backend id: auto, or an installed backend's
 * @param backendOptions interpolation, slices per pass, sample format, threads, device, variant
 * @param filter         ramp filter window, cutoff and padding
 * @param iterative      filtered back-projection (the default), gridrec, or an iterative method and its stopping rule
 */
public record AlgorithmSettings(String backend, BackendOptions backendOptions, FilterSpec filter, IterativeParams iterative)
        implements Serializable {

    /** FBP with the ramp filter on the backend auto picks. */
    public static final AlgorithmSettings DEFAULTS = new AlgorithmSettings("auto", null, null, null);

    public AlgorithmSettings {
        if (backend == null || backend.isBlank()) backend = "auto";
        if (backendOptions == null) backendOptions = BackendOptions.defaults();
        if (filter == null) filter = FilterSpec.of(FilterWindow.RAMLAK);
        if (iterative == null) iterative = IterativeParams.FBP;
        // gridrec runs on the host's cores: backend auto means the host's backend for it, a device backend is refused
        if (iterative.algorithm() == Algorithm.GRIDREC) {
            String host = Backends.onHostCpus();
            if ("auto".equals(backend)) backend = host;
            else if (!host.equals(backend))
                throw new IllegalArgumentException("config key algorithm=gridrec runs on CPUs (the " + host + " backend), not backend="
                        + backend + ": set backend=" + host + " (or auto), or algorithm=fbp for " + backend);
        }
    }

    /** These settings with another algorithm. */
    public AlgorithmSettings withIterative(IterativeParams it) {
        return new AlgorithmSettings(backend, backendOptions, filter, it);
    }
}
