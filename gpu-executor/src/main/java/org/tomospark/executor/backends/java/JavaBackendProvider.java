package org.tomospark.executor.backends.java;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.backend.GroupShape;
import org.tomospark.executor.backend.Operation;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.HostOps;
import org.tomospark.executor.iterative.JosephProjector;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Registers the pure-Java backend, the reference the others are checked against: FBP ({@link JavaBackend}), FDK
 * ({@link FdkBackprojector}) and the Joseph pair ({@link JosephProjector}, its vectors in Java arrays). Always
 * available, last choice for {@code auto}.
 */
public final class JavaBackendProvider implements BackendProvider {
    @Override
    public String id() {
        return JavaBackend.ID;
    }

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public BackprojectionBackend create() {
        return new JavaBackend();
    }

    @Override
    public Set<Operation> operations() {
        return EnumSet.allOf(Operation.class);
    }

    @Override
    public ConeBackprojector openFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, BackendOptions options) {
        return new FdkBackprojector(g, vol);
    }

    @Override
    public SolverOps openSolverOps(ScanGeometry scan, SliceGeometry grid, int k, BackendOptions options) {
        return HostOps.owning(new JosephProjector(scan, grid, k));
    }

    /**
     * Each slice's sum runs in the same order with the same float operations whatever the interleaving (the vector
     * lanes and the scalar loop compute a lane alike, and Java never fuses them into FMAs), so neither the slices per
     * pass nor the variant change a byte (tested), nor the tiling; the sample format and interpolation do.
     */
    @Override
    public BackendOptions outputDefining(BackendOptions o) {
        return BackendProvider.super.outputDefining(o).withSlicesPerPass(0).withVariant("auto");
    }

    @Override
    public List<ConfigKey<?>> settingsThatKeepBytes() {
        return List.of(JavaKeys.TILE, JavaKeys.PROJECTION_CHUNK);
    }

    /** One pass of the chosen (or automatic) number of interleaved slices; nothing larger pays. */
    @Override
    public GroupShape groupShape(BackendOptions o) {
        int k = o.slicesPerPass() == 0 ? JavaBackend.AUTO_SLICES_PER_PASS : o.slicesPerPass();
        return new GroupShape(k, k);
    }

    @Override
    public int autoPriority() {
        return 100;
    }

    /** The reference runs on the host's cores anywhere: auto's choice for a task given no GPU. */
    @Override
    public boolean runsOnHostCpus() {
        return true;
    }

    @Override
    public List<ConfigKey<?>> keys() {
        return JavaKeys.ALL;
    }
}
