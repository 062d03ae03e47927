package org.tomospark.executor.backends.toy;

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

import java.util.EnumSet;
import java.util.Set;

/**
 * A toy backend, added as a plug-in is: this package and its line in META-INF/services, nothing else. Plain scalar
 * loops in double precision, one pixel or voxel at a time, for FBP, FDK and the Joseph pair. It shows that the pipeline
 * reaches a backend through {@link BackendProvider} alone, and it passes the shared backend suite
 * ({@code BackendSuiteTest}) as the product's backends do. Never chosen by {@code auto}.
 */
public final class ToyBackendProvider implements BackendProvider {
    static final String ID = "toy";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public BackprojectionBackend create() {
        return new ToyBackprojection();
    }

    @Override
    public Set<Operation> operations() {
        return EnumSet.allOf(Operation.class);
    }

    @Override
    public ConeBackprojector openFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, BackendOptions options) {
        return new ToyFdk(g, vol);
    }

    @Override
    public SolverOps openSolverOps(ScanGeometry scan, SliceGeometry grid, int k, BackendOptions options) {
        return HostOps.owning(new ToyProjector(scan, grid, k));
    }

    @Override
    public int autoPriority() {
        return 1000;
    }

    @Override
    public boolean eligibleForAuto() {
        return false;
    }
}
