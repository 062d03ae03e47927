package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.backend.Operation;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.HostOps;

import java.util.List;
import java.util.EnumSet;
import java.util.Set;

/**
 * Registers the OpenCL backend. Available wherever an OpenCL platform with a device exists (PoCL counts);
 * chosen by {@code auto} only when an OpenCL GPU is present. On PoCL's CPU device only the 4-slice ALU
 * kernel beat the Java backend (1.7x in isolation), the texture kernels are 2-3x slower, and both would
 * share the executor's cores (BENCHMARKS.md, "OpenCL backend"), so a CPU-only machine keeps java.
 */
public final class OpenClBackendProvider implements BackendProvider {
    @Override
    public String id() {
        return OpenClBackend.ID;
    }

    @Override
    public String unavailableReason() {
        try {
            return ClRuntime.unavailableReason();
        } catch (Throwable t) { // must not throw, whatever the native layer does
            return "OpenCL probe failed: " + t;
        }
    }

    @Override
    public BackprojectionBackend create() {
        return new OpenClBackend();
    }

    @Override
    public Set<Operation> operations() {
        return EnumSet.allOf(Operation.class);
    }

    @Override
    public ConeBackprojector openFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, BackendOptions options) {
        return new OpenClFdk(g, vol, maxBandRows, maxSlices, options.device());
    }

    /** The projections on the device (kernels/joseph.cl); the solvers' vector updates on the host. */
    @Override
    public SolverOps openSolverOps(ScanGeometry scan, SliceGeometry grid, int k, BackendOptions options) {
        return HostOps.owning(new OpenClProjector(scan, grid, k, options.device()));
    }

    @Override
    public int autoPriority() {
        return 20;
    }

    @Override
    public boolean eligibleForAuto() {
        try {
            return ClRuntime.hasGpu();
        } catch (Throwable t) {
            return false;
        }
    }

    @Override
    public List<ConfigKey<?>> keys() {
        return OpenClKeys.ALL;
    }
}
