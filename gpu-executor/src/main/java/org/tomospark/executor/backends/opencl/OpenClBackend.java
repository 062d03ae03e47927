package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendStats;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.BatchContract;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * OpenCL back-projection through JOCL, on any OpenCL device: PoCL on CPUs (CI) and NVIDIA/AMD GPUs.
 *
 * <h2>Variants ({@code BackendOptions.variant})</h2>
 * <ul>
 *   <li>{@code std}: texture kernel, one slice per pass in a CL_R image (seed paper Algorithm 1);</li>
 *   <li>{@code tex2}: two slices per texel, CL_RG image (not on PoCL, which has no CL_RG);</li>
 *   <li>{@code tex4}: four slices per texel, CL_RGBA float image (sect. 5.2);</li>
 *   <li>{@code tex4half}: four slices per texel, CL_RGBA half image (sect. 5.3), where the device lists
 *       CL_RGBA/CL_HALF_FLOAT among its image formats (read_imagef converts; cl_khr_fp16 is not needed);</li>
 *   <li>{@code alu}: the local-memory ALU kernel (sect. 6): sinogram bins cached in __local, several
 *       pixels per work item; buffers only, so it is also the kernel for devices without images.
 *       Packs min(slicesPerPass, 4) slices (1, 2 or 4) per bin, float or half ({@code format});</li>
 *   <li>{@code auto}: GPUs: the texture kernel for slicesPerPass (1 → std, 2 → tex2 where CL_RG exists
 *       else tex4, ≥4 → tex4, half when {@code format=half} and supported); CPUs and devices without
 *       images: alu (measured faster on PoCL, see BENCHMARKS.md).</li>
 * </ul>
 * {@code tex2}/{@code tex4} store half bins when {@code format=half} and the device supports it; {@code std} always
 * stores float32 (PoCL's CL_R/HALF_FLOAT images read back garbage).
 *
 * <h2>Extra options ({@code BackendOptions.extra})</h2>
 * <ul>
 *   <li>{@code opencl.coords} = auto | float | double: arithmetic of the detector coordinate. auto uses
 *       double (cl_khr_fp64) for nearest interpolation, so the chosen bin is exactly the Java backend's, and on
 *       CPU devices (where double costs little: zero-mean white noise then matches Java to ~1e-6 instead of
 *       ~2e-5); float for linear on GPUs (the texture unit takes a float coordinate anyway).</li>
 *   <li>{@code opencl.filter} = host | device (default host): with {@code device} and a job carrying a
 *       {@link BackprojectionJob#deviceFilter()}, the ramp filter runs on the device as an FFT kernel
 *       and unfiltered batches are expected; otherwise the caller filters with {@link RampFilter}.</li>
 *   <li>{@code opencl.alu.pix} (default 2) and {@code opencl.alu.group} (default 16): ALU kernel
 *       pixels per item per dimension and work-group edge.</li>
 *   <li>{@code opencl.images} = auto | off: off treats the device as one without image support (buffer
 *       kernels only), as on devices with CL_DEVICE_IMAGE_SUPPORT false.</li>
 *   <li>{@code opencl.profile} = true: profile kernels; see {@link #kernelNanos()}.</li>
 *   <li>{@code opencl.define}: extra text appended to the build options (e.g. {@code -DBROKEN=1}, used
 *       by the tests to check that a build failure reports the build log).</li>
 * </ul>
 * The device comes from {@code BackendOptions.device}; see {@link DeviceSelector} for the syntax.
 *
 * <h2>Parts</h2>
 * This class runs the lifecycle and checks a job against the device's limits; {@link ClPlan} chooses the kernel,
 * {@link ClBackprojectKernels} builds and launches it, {@link ClPassPipeline} moves the passes through three queues and
 * two slots, and {@link ClMemory} allocates with errors that name the sizes and the device's limits.
 */
public final class OpenClBackend implements BackprojectionBackend {
    public static final String ID = "opencl";
    private static final Logger LOG = LoggerFactory.getLogger(OpenClBackend.class);

    private BackendOptions options;
    private ClRuntime.DeviceInfo device;
    private ClDeviceContext ctx;
    private ClMemory memory;
    private ClPassPipeline pipeline;

    private BackprojectionJob job;
    private ClPlan plan;
    private ClBackprojectKernels kernels;
    private BackendStats stats = BackendStats.ZERO;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public void setup(BackendOptions options) {
        this.options = options;
        String why = ClRuntime.unavailableReason();
        if (why != null) throw new OpenClException("opencl backend: " + why);
        device = ClRuntime.select(DeviceSelector.parse(options.device()));
        ctx = ClRuntime.context(device);
        memory = new ClMemory(ctx, device, "opencl");
        pipeline = new ClPassPipeline(ctx, device, options.get(OpenClKeys.PROFILE));
    }

    @Override
    public Requisition validate(BackprojectionJob job) {
        if (ctx == null) throw new IllegalStateException("opencl backend: validate() called before setup()");
        releaseJobResources();
        this.job = job;
        int width = job.scan().detectorWidth();
        int nproj = job.scan().numProjections();
        SliceGeometry g = job.slice();
        plan = ClPlan.resolve(options, ctx, device, width, nproj);
        int aluGroup = options.get(OpenClKeys.ALU_GROUP);
        if ((long) aluGroup * aluGroup > ctx.maxWorkGroup && plan.kind() == ClPlan.Kind.ALU)
            throw new OpenClException("opencl.alu.group " + aluGroup + " needs work-groups of " + aluGroup * aluGroup
                    + " items but " + device + " allows at most " + ctx.maxWorkGroup);
        int k = plan.channels();
        long sinoBytes = (long) nproj * width * plan.bytesPerBin();
        long outBytes = (long) g.pixels() * k * 4;
        int nfft = ClBackprojectKernels.deviceFilterLength(ctx, device, job.deviceFilter(), options, width);
        long rawBytes = nfft == 0 ? 0 : (long) nproj * width * k * 4 * (plan.kind() == ClPlan.Kind.IMAGE ? 2 : 1);
        // device limits, before allocating: a clear message instead of CL_MEM_OBJECT_ALLOCATION_FAILURE later
        long perSlot = sinoBytes + outBytes + rawBytes;
        long total = 2 * perSlot + (long) nproj * 48;
        memory.checkAlloc("sinogram " + (plan.kind() == ClPlan.Kind.IMAGE ? "image" : "buffer") + " (" + nproj + " projections x "
                + width + " bins x " + k + " slices x " + plan.bytesPerBin() / k + " B)", sinoBytes);
        memory.checkAlloc("output buffer (" + g.roiRows() + " x " + g.roiCols() + " pixels x " + k + " slices x 4 B)", outBytes);
        if (total > ctx.globalMem)
            throw new OpenClException("opencl: the job needs " + total + " bytes of device memory (2 pipeline slots of "
                    + perSlot + " bytes) but " + device + " has " + ctx.globalMem + " bytes (CL_DEVICE_GLOBAL_MEM_SIZE); "
                    + "reconstruct a smaller ROI or fewer slices per pass");
        // kernels: built lazily here, cached per context
        kernels = ClBackprojectKernels.build(ctx, device, plan, options, nfft == 0 ? null : job.deviceFilter(), nfft);
        long host = pipeline.allocate(memory, plan, kernels, job.tables(), g, kernels.filtersOnDevice() ? job.deviceFilter() : null);
        String desc = "opencl " + plan.describe() + " on " + device
                + (kernels.filtersOnDevice() ? ", ramp filter on the device (FFT " + nfft + ")" : "");
        LOG.info("{}", desc);
        return new Requisition(k, 2 * perSlot + (long) nproj * (plan.coordDouble() ? 48 : 16),
                host + (long) nproj * width * k * 4, kernels.filtersOnDevice(), desc);
    }

    /** Translates out-of-resource statuses into a message with the size asked for and the device's limits. */
    OpenClException resourceError(String what, long bytes, CLException e) {
        return memory.error(what, bytes, e);
    }

    @Override
    public void process(SliceBatch batch, float[][] out) {
        if (plan == null) throw new IllegalStateException("opencl backend: process() called before validate()");
        int width = job.scan().detectorWidth();
        int nproj = job.scan().numProjections();
        SliceGeometry g = job.slice();
        // the ramp filter runs on the device only with opencl.filter=device and a job carrying deviceFilter
        BatchContract.check(ID, job, batch, out, kernels.filtersOnDevice());
        long t0 = System.nanoTime();
        pipeline.run(batch, out, g, nproj, width, kernels.filtersOnDevice() && !batch.filtered());
        stats = stats.plus((long) g.pixels() * nproj * batch.count(), System.nanoTime() - t0);
    }

    /** Kernel time in ns over all batches (needs {@code opencl.profile=true}). */
    public long kernelNanos() {
        return pipeline == null ? 0 : pipeline.kernelNanos();
    }

    /** Device filter kernel time in ns (needs {@code opencl.profile=true} and {@code opencl.filter=device}). */
    public long filterNanos() {
        return pipeline == null ? 0 : pipeline.filterNanos();
    }

    /** The resolved plan, in words (after validate). */
    public String planDescription() {
        return plan == null ? "(not validated)" : plan.describe();
    }

    @Override
    public BackendStats stats() {
        return stats;
    }

    @Override
    public String deviceDescription() {
        if (device == null) return "opencl: no device selected";
        return "opencl: " + device + (ctx == null ? "" : ", " + ctx.computeUnits + " compute units")
                + (plan == null ? "" : ", kernel " + plan.describe());
    }

    private void releaseJobResources() {
        if (pipeline != null) pipeline.release();
        if (kernels != null) kernels.close();
        kernels = null;
        plan = null;
    }

    @Override
    public void close() {
        try {
            releaseJobResources();
            if (pipeline != null) pipeline.close();
        } catch (CLException e) {
            LOG.warn("opencl: error while releasing resources on {}: {}", device, CL.stringFor_errorCode(e.getStatus()));
        } finally {
            pipeline = null;
        }
    }
}
