package org.tomospark.executor.backend;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One backend as a plug-in, found with {@link java.util.ServiceLoader} ({@link Backends}): its id, whether it can run
 * here, and what it computes ({@link #operations}): FBP back-projection always ({@link #create}), cone-beam FDK
 * ({@link #openFdk}) and the iterative methods' projector pair ({@link #openSolverOps}) where it offers them. The
 * pipeline reaches every backend through this interface alone and never names one: a new backend is one package with a
 * provider listed in {@code META-INF/services}.
 */
public interface BackendProvider {
    /** The id selectable by configuration ({@code backend=ID}). */
    String id();

    /** Null if the backend can run here; otherwise why not, in words. Must not throw. */
    String unavailableReason();

    BackprojectionBackend create();

    /** What this backend computes; {@link Operation#FBP} always. */
    default Set<Operation> operations() {
        return EnumSet.of(Operation.FBP);
    }

    /**
     * An FDK back-projector for z-slabs of {@code vol} on this backend's device ({@link Operation#FDK}).
     *
     * @param maxBandRows the most detector rows a slab's band holds
     * @param maxSlices   the most slices a slab holds
     * @throws UnsupportedOperationException where the backend does not offer FDK
     */
    default ConeBackprojector openFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, BackendOptions options) {
        throw new UnsupportedOperationException(Backends.missing(this, Operation.FDK));
    }

    /**
     * The projector pair and the solvers' vector operations for {@code k} interleaved slices of {@code grid} on this
     * backend ({@link Operation#PROJECTOR_PAIR}); the caller closes them.
     *
     * @throws UnsupportedOperationException where the backend does not offer the projector pair
     */
    default SolverOps openSolverOps(ScanGeometry scan, SliceGeometry grid, int k, BackendOptions options) {
        throw new UnsupportedOperationException(Backends.missing(this, Operation.PROJECTOR_PAIR));
    }

    /**
     * Slices per iterative pass when the configuration leaves it to the backend: by default the group's slices up to
     * 8; a device may take more where its memory holds them.
     *
     * @param full        the whole slice grid (a solve runs on it, whatever the ROI)
     * @param footprint   the vectors the solver holds at once
     * @param groupSlices the slices of a group
     */
    default int iterativeSlicesPerPass(ScanGeometry scan, SliceGeometry full, SolveFootprint footprint, int groupSlices,
                                       BackendOptions options) {
        return Math.min(8, groupSlices);
    }

    /**
     * Whether the direct engine may run several FBP groups at once on one of this backend's devices (lanes): where one
     * group's transfers and kernels leave the device idle part of the time. By default one group at a time.
     */
    default boolean overlapsGroups() {
        return false;
    }

    /** Lower runs first when choosing {@code auto}. */
    int autoPriority();

    /**
     * Whether this backend runs on the GPUs a run is given (Spark's GPU resources, {@code job.devices}, the driver's
     * GPUs in local mode): each task takes one of them, {@code auto} chooses this backend where GPUs are given, and the
     * engines open it ahead on them ({@link #openAhead}). By default not.
     */
    default boolean runsOnAssignedGpus() {
        return false;
    }

    /**
     * Whether this backend computes on the host's CPU cores alone, with no device to plan for: {@code auto} takes it
     * (the first such one, by {@link #autoPriority}) where a task is given no GPU. By default not.
     */
    default boolean runsOnHostCpus() {
        return false;
    }

    /**
     * Opens this backend on {@code device} and closes it again, so that what it keeps per device and JVM (a context,
     * its kernels) is ready for the first group; called on a background thread while the caller plans. By default
     * nothing.
     */
    default void openAhead(String device) {
    }

    /**
     * {@code o} for processors of which {@code processors} share one device at once (Spark tasks on one GPU, the direct
     * engine's lanes), unless the user set how; the bytes computed are the same. By default {@code o}.
     */
    default BackendOptions sharingOneDevice(BackendOptions o, int processors) {
        return o;
    }

    /**
     * {@code o} for a run whose groups go to several devices that must all compute the same bytes (no choice of kernel
     * per device, unless the user asks for it). By default {@code o}.
     */
    default BackendOptions sameBytesOnEveryDevice(BackendOptions o) {
        return o;
    }

    /**
     * Whether this backend, with these options, corrects the raw counts (flat/dark, −log) on its device where the
     * sinogram stages ask nothing else of them, so that a task hands it the raw band. By default not.
     */
    default boolean correctsOnDevice(BackendOptions o) {
        return false;
    }

    /**
     * Whether this backend's processors fill the direct engine's slice frames themselves (host memory registered with
     * its device), so that the engine allocates the frames as such. By default not.
     */
    default boolean fillsDirectFrames() {
        return false;
    }

    /** Whether {@code auto} may choose this backend (GPU backends only when a GPU is present). */
    default boolean eligibleForAuto() {
        return unavailableReason() == null;
    }

    /**
     * The options that decide the output's bytes: {@code o} with every setting this backend's results do not depend
     * on reset to its default. An output's run signature holds these, so that a {@code --resume} with, say, other
     * threads is accepted and one with another kernel is not. By default threads and device do not count.
     */
    default BackendOptions outputDefining(BackendOptions o) {
        BackendOptions d = o.withThreads(0).withDevice("");
        for (ConfigKey<?> k : settingsThatKeepBytes()) d = d.withoutExtra(k.name());
        return d;
    }

    /**
     * This backend's settings, as config keys declared in its own package: registered with every other key
     * ({@link Backends#keys}), so that settings naming them are accepted and conf/CONFIG.md documents them, and carried
     * to the backend in {@link BackendOptions#extra()}. By default none.
     */
    default List<ConfigKey<?>> keys() {
        return List.of();
    }

    /** This backend's settings ({@link #keys}) that change its speed, never its output's bytes. */
    default List<ConfigKey<?>> settingsThatKeepBytes() {
        return List.of();
    }

    /** The slice groups this backend runs best with, for these options (planning needs no device). */
    default GroupShape groupShape(BackendOptions o) {
        int k = o.slicesPerPass() == 0 ? 1 : o.slicesPerPass();
        return new GroupShape(k, o.slicesPerPass() == 0 ? 16 : k);
    }

    /**
     * Gives back what this backend holds for the process's lifetime (device contexts, registered and pinned host
     * memory), at the end of a command whose process exits next: a driver tears these down faster when asked than when
     * the process ends holding them. Nothing may use the backend in this process afterwards. By default nothing.
     */
    default void releaseBeforeExit() {
    }
}
