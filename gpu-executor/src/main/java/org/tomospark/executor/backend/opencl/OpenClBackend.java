package org.tomospark.executor.backend.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_image_desc;
import org.jocl.cl_image_format;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendStats;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.BatchContract;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.MultiSlicePacker;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.SliceGeometry;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;
import java.util.Locale;
import static org.jocl.CL.CL_FALSE;
import static org.jocl.CL.CL_FLOAT;
import static org.jocl.CL.CL_HALF_FLOAT;
import static org.jocl.CL.CL_INVALID_BUFFER_SIZE;
import static org.jocl.CL.CL_INVALID_IMAGE_SIZE;
import static org.jocl.CL.CL_MEM_COPY_HOST_PTR;
import static org.jocl.CL.CL_MEM_OBJECT_ALLOCATION_FAILURE;
import static org.jocl.CL.CL_MEM_OBJECT_IMAGE2D;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_MEM_WRITE_ONLY;
import static org.jocl.CL.CL_OUT_OF_HOST_MEMORY;
import static org.jocl.CL.CL_OUT_OF_RESOURCES;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.CL_R;
import static org.jocl.CL.CL_RG;
import static org.jocl.CL.CL_RGBA;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clCreateImage;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clEnqueueCopyBufferToImage;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clEnqueueWriteImage;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clFlush;
import static org.jocl.CL.clGetEventProfilingInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clSetKernelArg;
import static org.jocl.CL.clWaitForEvents;

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
 * <h2>Pipeline</h2>
 * Three in-order queues on the shared per-device context: uploads, kernels, downloads. A batch is cut
 * into passes of {@code k} slices; two slots of device and pinned host buffers alternate, so the upload
 * of pass i+1 and the download of pass i-1 overlap the kernel of pass i, and host packing of the next
 * pass overlaps device work.
 */
public final class OpenClBackend implements BackprojectionBackend {
    public static final String ID = "opencl";
    private static final Logger LOG = LoggerFactory.getLogger(OpenClBackend.class);

    enum Kind { IMAGE, ALU }

    /** The resolved kernel plan. */
    record Plan(String variant, Kind kind, int channels, boolean half, boolean linear, boolean coordDouble) {
        String describe() {
            return variant + " (" + (kind == Kind.IMAGE ? "image2d " + channelOrderName(channels) + "/" + (half ? "HALF" : "FLOAT")
                    : "local-memory ALU, " + channels + " slices/bin, " + (half ? "half" : "float") + " buffer")
                    + ", " + (linear ? "linear" : "nearest") + ", " + (coordDouble ? "double" : "float") + " coordinates)";
        }
    }

    private BackendOptions options;
    private ClRuntime.DeviceInfo device;
    private ClDeviceContext ctx;
    private cl_command_queue upQ, kQ, dnQ;
    private boolean profile;

    private BackprojectionJob job;
    private Plan plan;
    private cl_kernel kernel;
    private cl_kernel filterKernel;
    private cl_mem consts, dconsts, response;
    private int aluGroup = 16, aluPix = 2, pchunk = 16;
    private boolean filterOnDevice;
    private boolean imagesUsable;
    private int nfft;
    private int filterLocal;
    private final Slot[] slots = new Slot[2];
    private float[] packed;
    private short[] packedHalf;
    private BackendStats stats = BackendStats.ZERO;
    private long kernelNanos;
    private long filterNanos;

    /** Device and host buffers of one pipeline slot. */
    private static final class Slot {
        cl_mem sino;       // image or buffer the back-projection reads
        cl_mem raw;        // device filter: unfiltered upload (float)
        cl_mem filtered;   // device filter + image: filtered buffer copied into the image
        cl_mem out;
        ByteBuffer hostIn;
        ByteBuffer hostOut;
        cl_event evUp, evFilter, evK, evDown;
        boolean pending;
        int first, n;
    }

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
        profile = options.get(BackendKeys.OPENCL_PROFILE);
        long props = profile ? CL_QUEUE_PROFILING_ENABLE : 0;
        try {
            upQ = clCreateCommandQueue(ctx.context(), device.device(), props, null);
            kQ = clCreateCommandQueue(ctx.context(), device.device(), props, null);
            dnQ = clCreateCommandQueue(ctx.context(), device.device(), props, null);
        } catch (CLException e) {
            throw new OpenClException("could not create command queues on " + device + ": " + CL.stringFor_errorCode(e.getStatus()), e);
        }
    }

    @Override
    public Requisition validate(BackprojectionJob job) {
        if (ctx == null) throw new IllegalStateException("opencl backend: validate() called before setup()");
        releaseJobResources();
        this.job = job;
        int width = job.scan().detectorWidth();
        int nproj = job.scan().numProjections();
        SliceGeometry g = job.slice();
        plan = resolvePlan(options, width, nproj);
        aluGroup = options.get(BackendKeys.OPENCL_ALU_GROUP);
        aluPix = options.get(BackendKeys.OPENCL_ALU_PIX);
        if ((long) aluGroup * aluGroup > ctx.maxWorkGroup && plan.kind == Kind.ALU)
            throw new OpenClException("opencl.alu.group " + aluGroup + " needs work-groups of " + aluGroup * aluGroup
                    + " items but " + device + " allows at most " + ctx.maxWorkGroup);
        int k = plan.channels;
        int bytesPerBin = plan.half ? 2 : 4;
        long sinoBytes = (long) nproj * width * k * bytesPerBin;
        long outBytes = (long) g.pixels() * k * 4;
        FilterSpec fs = job.deviceFilter();
        filterOnDevice = fs != null && options.get(BackendKeys.OPENCL_FILTER).equals("device");
        long rawBytes = 0;
        if (filterOnDevice) {
            nfft = FilterSpec.paddedLength(width);
            if ((long) nfft * 8 > ctx.localMem) {
                LOG.warn("opencl: ramp filter of FFT length {} needs {} bytes of local memory but {} has {}; filtering on the host",
                        nfft, nfft * 8L, device, ctx.localMem);
                filterOnDevice = false;
            } else {
                rawBytes = (long) nproj * width * k * 4 * (plan.kind == Kind.IMAGE ? 2 : 1);
            }
        }
        // device limits, before allocating: a clear message instead of CL_MEM_OBJECT_ALLOCATION_FAILURE later
        long perSlot = sinoBytes + outBytes + rawBytes;
        long total = 2 * perSlot + (long) nproj * 48;
        checkAlloc("sinogram " + (plan.kind == Kind.IMAGE ? "image" : "buffer") + " (" + nproj + " projections x " + width
                + " bins x " + k + " slices x " + bytesPerBin + " B)", sinoBytes);
        checkAlloc("output buffer (" + g.roiRows() + " x " + g.roiCols() + " pixels x " + k + " slices x 4 B)", outBytes);
        if (total > ctx.globalMem)
            throw new OpenClException("opencl: the job needs " + total + " bytes of device memory (2 pipeline slots of "
                    + perSlot + " bytes) but " + device + " has " + ctx.globalMem + " bytes (CL_DEVICE_GLOBAL_MEM_SIZE); "
                    + "reconstruct a smaller ROI or fewer slices per pass");

        // kernels: built lazily here, cached per context
        String coordOpt = plan.coordDouble ? " -DCOORD_DOUBLE=1" : "";
        String extraDefs = options.get(BackendKeys.OPENCL_DEFINE);
        String common = "-cl-mad-enable -DLINEAR=" + (plan.linear ? 1 : 0) + " -DCHANNELS=" + k + coordOpt
                + (extraDefs.isBlank() ? "" : " " + extraDefs.trim());
        if (plan.kind == Kind.IMAGE) {
            cl_program p = ctx.program("bp_image.cl", KernelSources.get("bp_image.cl"), common);
            kernel = clCreateKernel(p, "bp_image", null);
        } else {
            pchunk = 16;
            long localBytes = (long) pchunk * (aluGroup * aluPix * 3 / 2 + 4) * k * 4 + pchunk * 4L;
            while (localBytes > ctx.localMem && pchunk > 1) {
                pchunk /= 2;
                localBytes = (long) pchunk * (aluGroup * aluPix * 3 / 2 + 4) * k * 4 + pchunk * 4L;
            }
            if (localBytes > ctx.localMem)
                throw new OpenClException("opencl alu kernel: a " + aluGroup * aluPix + "-pixel tile needs " + localBytes
                        + " bytes of local memory but " + device + " has " + ctx.localMem + "; lower opencl.alu.pix");
            String opts = common + " -DHALF_STORAGE=" + (plan.half ? 1 : 0) + " -DGROUP=" + aluGroup + " -DPIX=" + aluPix
                    + " -DPCHUNK=" + pchunk;
            cl_program p = ctx.program("bp_alu.cl", KernelSources.get("bp_alu.cl"), opts);
            kernel = clCreateKernel(p, "bp_alu", null);
        }
        if (filterOnDevice) {
            String opts = "-DNFFT=" + nfft + " -DLOG2N=" + Integer.numberOfTrailingZeros(nfft) + " -DCHANNELS=" + k
                    + " -DEDGE_PAD=" + (fs.padding() == Padding.EDGE ? 1 : 0) + " -DOUT_HALF=" + (plan.half ? 1 : 0)
                    + (extraDefs.isBlank() ? "" : " " + extraDefs.trim());
            cl_program p = ctx.program("ramp_filter.cl", KernelSources.get("ramp_filter.cl"), opts);
            filterKernel = clCreateKernel(p, "ramp_filter", null);
            filterLocal = (int) Math.min(256, Math.min(ctx.maxWorkGroup, nfft / 2));
            float[] resp = new RampFilter(width, nproj, fs).response();
            response = alloc("ramp filter response", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (long) resp.length * 4, Pointer.to(resp));
        }

        // projection constants
        ProjectionTables t = job.tables();
        float[] c4 = new float[nproj * 4];
        double[] d4 = new double[nproj * 4];
        for (int p = 0; p < nproj; p++) {
            c4[4 * p] = (float) t.cos(p);
            c4[4 * p + 1] = (float) t.sin(p);
            c4[4 * p + 2] = (float) t.offset(p);
            d4[4 * p] = t.cos(p);
            d4[4 * p + 1] = t.sin(p);
            d4[4 * p + 2] = t.offset(p);
        }
        consts = alloc("projection constants", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (long) c4.length * 4, Pointer.to(c4));
        if (plan.coordDouble)
            dconsts = alloc("projection constants (double)", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (long) d4.length * 8, Pointer.to(d4));

        for (int i = 0; i < 2; i++) {
            Slot s = new Slot();
            if (plan.kind == Kind.IMAGE) {
                s.sino = createImage(width, nproj, k, plan.half, sinoBytes);
            } else {
                s.sino = alloc("sinogram buffer", CL_MEM_READ_ONLY, sinoBytes, null);
            }
            s.out = alloc("output buffer", CL_MEM_WRITE_ONLY, outBytes, null);
            if (filterOnDevice) {
                long rb = (long) nproj * width * k * 4;
                s.raw = alloc("unfiltered sinogram buffer", CL_MEM_READ_ONLY, rb, null);
                if (plan.kind == Kind.IMAGE) s.filtered = alloc("filtered sinogram buffer", CL_MEM_READ_WRITE, sinoBytes, null);
            }
            long inBytes = filterOnDevice ? (long) nproj * width * k * 4 : sinoBytes;
            s.hostIn = ByteBuffer.allocateDirect(Math.toIntExact(inBytes)).order(ByteOrder.nativeOrder());
            s.hostOut = ByteBuffer.allocateDirect(Math.toIntExact(outBytes)).order(ByteOrder.nativeOrder());
            slots[i] = s;
        }
        String desc = "opencl " + plan.describe() + " on " + device
                + (filterOnDevice ? ", ramp filter on the device (FFT " + nfft + ")" : "");
        LOG.info("{}", desc);
        return new Requisition(k, 2 * perSlot + (long) nproj * (plan.coordDouble ? 48 : 16),
                2 * (slots[0].hostIn.capacity() + outBytes) + (long) nproj * width * k * 4, filterOnDevice, desc);
    }


    /** Picks the kernel variant; every refusal says what the device lacks and what to use instead. */
    Plan resolvePlan(BackendOptions o, int width, int nproj) {
        String v = o.variant().trim().toLowerCase(Locale.ROOT);
        boolean linear = o.interpolation() == Interpolation.LINEAR;
        boolean wantHalf = o.format() == SampleFormat.HALF;
        boolean fp64 = ctx.hasExtension("cl_khr_fp64");
        String coords = o.get(BackendKeys.OPENCL_COORDS);
        boolean coordDouble = switch (coords) {
            // double where it is cheap (CPU devices) or where it decides the bin (nearest); float on GPUs for linear
            case "auto" -> fp64 && (!linear || !device.isGpu());
            case "float" -> false;
            case "double" -> {
                if (!fp64) throw new OpenClException("opencl.coords=double needs cl_khr_fp64, which " + device + " lacks");
                yield true;
            }
            default -> throw new IllegalArgumentException("opencl.coords must be auto, float or double, got '" + coords + "'");
        };
        int spp = o.slicesPerPass() == 0 ? 4 : o.slicesPerPass(); // 0 = auto: 4 slices per texel/bin
        String img = o.get(BackendKeys.OPENCL_IMAGES);
        imagesUsable = ctx.imageSupport && img.equals("auto");
        boolean imagesFit = imagesUsable && width <= ctx.image2dMaxWidth && nproj <= ctx.image2dMaxHeight;
        switch (v) {
            case "auto": {
                if (!device.isGpu() || !imagesFit) {
                    if (!imagesUsable) LOG.warn("opencl: {} has no image support; using the buffer-based alu kernel", device);
                    return new Plan("alu", Kind.ALU, Math.min(spp, 4), wantHalf, linear, coordDouble);
                }
                int k = spp >= 4 ? 4 : spp == 2 ? (ctx.supportsImageFormat(CL_RG, CL_FLOAT) ? 2 : 4) : 1;
                boolean half = wantHalf && k > 1 && ctx.supportsImageFormat(channelOrder(k), CL_HALF_FLOAT);
                if (wantHalf && k == 1) LOG.info("opencl std stores float32 bins; half storage is offered by tex4half and alu");
                else if (wantHalf && !half) LOG.warn("opencl: {} has no {}/HALF_FLOAT images; storing float", device, channelOrderName(k));
                return new Plan(k == 1 ? "std" : k == 2 ? "tex2" : half ? "tex4half" : "tex4", Kind.IMAGE, k, half, linear, coordDouble);
            }
            case "std":
                // Algorithm 1, the baseline, stores float32 bins (PoCL's CL_R/HALF_FLOAT images read back garbage)
                if (wantHalf) LOG.info("opencl std stores float32 bins; half storage is offered by tex4half and alu");
                return imagePlan(v, 1, false, linear, coordDouble, width, nproj);
            case "tex2":
                return imagePlan(v, 2, wantHalf, linear, coordDouble, width, nproj);
            case "tex4":
                return imagePlan(v, 4, wantHalf, linear, coordDouble, width, nproj);
            case "tex4half":
                return imagePlan(v, 4, true, linear, coordDouble, width, nproj);
            case "alu":
                return new Plan("alu", Kind.ALU, Math.min(spp, 4), wantHalf, linear, coordDouble);
            default:
                throw new IllegalArgumentException("opencl backend: unknown variant '" + o.variant()
                        + "': expected auto, std, tex2, tex4, tex4half or alu");
        }
    }

    private Plan imagePlan(String v, int k, boolean half, boolean linear, boolean coordDouble, int width, int nproj) {
        if (!imagesUsable)
            throw new OpenClException("opencl variant '" + v + "' needs image support, which " + device
                    + (ctx.imageSupport ? " has but opencl.images=off disables" : " lacks (CL_DEVICE_IMAGE_SUPPORT = false)")
                    + "; use variant alu (buffer kernel) or auto");
        int type = half ? CL_HALF_FLOAT : CL_FLOAT;
        if (!ctx.supportsImageFormat(channelOrder(k), type))
            throw new OpenClException("opencl variant '" + v + "' needs read-only 2D images of format " + channelOrderName(k) + "/"
                    + (half ? "CL_HALF_FLOAT" : "CL_FLOAT") + ", which " + device + " does not list"
                    + (k == 2 ? " (PoCL has no CL_RG); use tex4 or alu" : "; use alu"));
        if (width > ctx.image2dMaxWidth || nproj > ctx.image2dMaxHeight)
            throw new OpenClException("opencl variant '" + v + "': the sinogram image would be " + width + " x " + nproj
                    + " texels but " + device + " allows at most " + ctx.image2dMaxWidth + " x " + ctx.image2dMaxHeight
                    + " (CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT); use variant alu");
        return new Plan(v, Kind.IMAGE, k, half, linear, coordDouble);
    }

    static int channelOrder(int k) {
        return k == 1 ? CL_R : k == 2 ? CL_RG : CL_RGBA;
    }

    static String channelOrderName(int k) {
        return k == 1 ? "CL_R" : k == 2 ? "CL_RG" : "CL_RGBA";
    }

    private void checkAlloc(String what, long bytes) {
        if (bytes > ctx.maxAlloc)
            throw new OpenClException("opencl: the " + what + " needs " + bytes + " bytes in one allocation but " + device
                    + " allows at most " + ctx.maxAlloc + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE); reconstruct a smaller ROI, "
                    + "fewer projections or fewer slices per pass");
    }

    private cl_mem alloc(String what, long flags, long bytes, Pointer host) {
        try {
            return clCreateBuffer(ctx.context(), flags, bytes, host, null);
        } catch (CLException e) {
            throw resourceError("allocating the " + what, bytes, e);
        }
    }

    private cl_mem createImage(int width, int nproj, int k, boolean half, long bytes) {
        cl_image_format fmt = new cl_image_format();
        fmt.image_channel_order = channelOrder(k);
        fmt.image_channel_data_type = half ? CL_HALF_FLOAT : CL_FLOAT;
        cl_image_desc desc = new cl_image_desc();
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = width;
        desc.image_height = nproj;
        try {
            return clCreateImage(ctx.context(), CL_MEM_READ_ONLY, fmt, desc, null, null);
        } catch (CLException e) {
            throw resourceError("creating the " + width + " x " + nproj + " sinogram image", bytes, e);
        }
    }

    /** Translates out-of-resource statuses into a message with the size asked for and the device's limits. */
    OpenClException resourceError(String what, long bytes, CLException e) {
        int st = e.getStatus();
        String status = CL.stringFor_errorCode(st);
        if (st == CL_OUT_OF_RESOURCES || st == CL_MEM_OBJECT_ALLOCATION_FAILURE || st == CL_OUT_OF_HOST_MEMORY
                || st == CL_INVALID_BUFFER_SIZE || st == CL_INVALID_IMAGE_SIZE)
            return new OpenClException("opencl: " + what + " (" + bytes + " bytes) failed on " + device + " with " + status
                    + "; device limits: CL_DEVICE_MAX_MEM_ALLOC_SIZE " + ctx.maxAlloc + " bytes, CL_DEVICE_GLOBAL_MEM_SIZE "
                    + ctx.globalMem + " bytes", e);
        return new OpenClException("opencl: " + what + " failed on " + device + " with " + status, e);
    }

    @Override
    public void process(SliceBatch batch, float[][] out) {
        if (plan == null) throw new IllegalStateException("opencl backend: process() called before validate()");
        int width = job.scan().detectorWidth();
        int nproj = job.scan().numProjections();
        SliceGeometry g = job.slice();
        // the ramp filter runs on the device only with opencl.filter=device and a job carrying deviceFilter
        BatchContract.check(ID, job, batch, out, filterOnDevice);
        boolean filterHere = filterOnDevice && !batch.filtered();
        int pixels = g.pixels();
        long t0 = System.nanoTime();
        int k = plan.channels;
        int passes = (batch.count() + k - 1) / k;
        try {
            for (int pass = 0; pass < passes; pass++) {
                if (batch.cancellation().requested()) {
                    drain();
                    batch.cancellation().check("back-projecting pass " + pass + " of " + passes);
                }
                Slot s = slots[pass & 1];
                if (s.pending) finish(s, out, pixels);
                int first = pass * k;
                int n = Math.min(k, batch.count() - first);
                enqueuePass(s, batch.sinograms(), first, n, width, nproj, g, filterHere);
            }
            for (int pass = Math.max(0, passes - 2); pass < passes; pass++) {
                Slot s = slots[pass & 1];
                if (s.pending) finish(s, out, pixels);
            }
        } catch (CLException e) {
            drain();
            throw resourceError("back-projecting the batch at row " + batch.firstRow(), (long) nproj * width * k * (plan.half ? 2 : 4), e);
        }
        stats = stats.plus((long) pixels * nproj * batch.count(), System.nanoTime() - t0);
    }

    private void enqueuePass(Slot s, float[][] sinos, int first, int n, int width, int nproj, SliceGeometry g, boolean filterHere) {
        int k = plan.channels;
        int bins = nproj * width;
        s.hostIn.clear();
        if (filterHere || !plan.half) {
            FloatBuffer fb = s.hostIn.asFloatBuffer();
            if (k == 1) {
                fb.put(sinos[first]);
            } else {
                packed = MultiSlicePacker.interleave(sinos, first, k, bins, packed);
                fb.put(packed, 0, bins * k);
            }
        } else {
            ShortBuffer sb = s.hostIn.asShortBuffer();
            packedHalf = MultiSlicePacker.interleaveHalf(sinos, first, k, bins, packedHalf);
            sb.put(packedHalf, 0, bins * k);
        }
        long sinoBytes = (long) bins * k * (plan.half ? 2 : 4);
        s.evUp = new cl_event();
        cl_event ready;
        if (filterHere) {
            clEnqueueWriteBuffer(upQ, s.raw, CL_FALSE, 0, (long) bins * k * 4, Pointer.to(s.hostIn), 0, null, s.evUp);
            cl_mem target = plan.kind == Kind.IMAGE ? s.filtered : s.sino;
            int fa = 0; // arguments in the order of ramp_filter.cl's signature
            clSetKernelArg(filterKernel, fa++, Sizeof.cl_mem, Pointer.to(s.raw));
            clSetKernelArg(filterKernel, fa++, Sizeof.cl_mem, Pointer.to(target));
            clSetKernelArg(filterKernel, fa++, Sizeof.cl_mem, Pointer.to(response));
            clSetKernelArg(filterKernel, fa++, Sizeof.cl_int, Pointer.to(new int[]{width}));
            clSetKernelArg(filterKernel, fa++, (long) nfft * 8, null);
            s.evFilter = new cl_event();
            long[] global = {(long) filterLocal * nproj * k};
            long[] local = {filterLocal};
            if (plan.kind == Kind.IMAGE) {
                cl_event evF = new cl_event();
                clEnqueueNDRangeKernel(kQ, filterKernel, 1, null, global, local, 1, new cl_event[]{s.evUp}, evF);
                clEnqueueCopyBufferToImage(kQ, s.filtered, s.sino, 0, new long[]{0, 0, 0}, new long[]{width, nproj, 1}, 1,
                        new cl_event[]{evF}, s.evFilter);
                if (profile) {
                    clWaitForEvents(1, new cl_event[]{evF});
                    filterNanos += elapsed(evF);
                }
                clReleaseEvent(evF);
            } else {
                clEnqueueNDRangeKernel(kQ, filterKernel, 1, null, global, local, 1, new cl_event[]{s.evUp}, s.evFilter);
            }
            ready = s.evFilter;
        } else {
            if (plan.kind == Kind.IMAGE) {
                clEnqueueWriteImage(upQ, s.sino, CL_FALSE, new long[]{0, 0, 0}, new long[]{width, nproj, 1},
                        (long) width * k * (plan.half ? 2 : 4), 0, Pointer.to(s.hostIn), 0, null, s.evUp);
            } else {
                clEnqueueWriteBuffer(upQ, s.sino, CL_FALSE, 0, sinoBytes, Pointer.to(s.hostIn), 0, null, s.evUp);
            }
            ready = s.evUp;
        }
        int a = 0;
        clSetKernelArg(kernel, a++, Sizeof.cl_mem, Pointer.to(s.sino));
        clSetKernelArg(kernel, a++, Sizeof.cl_mem, Pointer.to(consts));
        if (plan.coordDouble) clSetKernelArg(kernel, a++, Sizeof.cl_mem, Pointer.to(dconsts));
        clSetKernelArg(kernel, a++, Sizeof.cl_int, Pointer.to(new int[]{nproj}));
        if (plan.kind == Kind.ALU) clSetKernelArg(kernel, a++, Sizeof.cl_int, Pointer.to(new int[]{width}));
        clSetKernelArg(kernel, a++, Sizeof.cl_int, Pointer.to(new int[]{g.roiCols()}));
        clSetKernelArg(kernel, a++, Sizeof.cl_int, Pointer.to(new int[]{g.roiRows()}));
        clSetKernelArg(kernel, a, Sizeof.cl_mem, Pointer.to(s.out));
        long[] global, local;
        if (plan.kind == Kind.IMAGE) {
            int l = ctx.maxWorkGroup >= 256 ? 16 : 8;
            global = new long[]{roundUp(g.roiCols(), l), roundUp(g.roiRows(), l)};
            local = new long[]{l, l};
        } else {
            int tile = aluGroup * aluPix;
            global = new long[]{(long) ((g.roiCols() + tile - 1) / tile) * aluGroup, (long) ((g.roiRows() + tile - 1) / tile) * aluGroup};
            local = new long[]{aluGroup, aluGroup};
        }
        s.evK = new cl_event();
        clEnqueueNDRangeKernel(kQ, kernel, 2, null, global, local, 1, new cl_event[]{ready}, s.evK);
        s.evDown = new cl_event();
        clEnqueueReadBuffer(dnQ, s.out, CL_FALSE, 0, (long) g.pixels() * k * 4, Pointer.to(s.hostOut), 1, new cl_event[]{s.evK}, s.evDown);
        clFlush(upQ);
        clFlush(kQ);
        clFlush(dnQ);
        s.first = first;
        s.n = n;
        s.pending = true;
    }

    private static long roundUp(int v, int m) {
        return (long) ((v + m - 1) / m) * m;
    }

    private void finish(Slot s, float[][] out, int pixels) {
        clWaitForEvents(1, new cl_event[]{s.evDown});
        FloatBuffer fb = s.hostOut.asFloatBuffer();
        for (int i = 0; i < s.n; i++) {
            fb.position(i * pixels);
            fb.get(out[s.first + i], 0, pixels);
        }
        if (profile) {
            kernelNanos += elapsed(s.evK);
            if (s.evFilter != null && plan.kind == Kind.ALU) filterNanos += elapsed(s.evFilter);
        }
        releaseEvents(s);
        s.pending = false;
    }

    private static long elapsed(cl_event e) {
        long[] a = new long[1], b = new long[1];
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, Sizeof.cl_ulong, Pointer.to(a), null);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, Sizeof.cl_ulong, Pointer.to(b), null);
        return b[0] - a[0];
    }

    private static void releaseEvents(Slot s) {
        for (cl_event e : new cl_event[]{s.evUp, s.evFilter, s.evK, s.evDown})
            if (e != null) {
                try {
                    clReleaseEvent(e);
                } catch (CLException ignored) {
                    // an event that was never enqueued
                }
            }
        s.evUp = s.evFilter = s.evK = s.evDown = null;
    }

    private void drain() {
        for (cl_command_queue q : new cl_command_queue[]{upQ, kQ, dnQ}) {
            try {
                if (q != null) clFinish(q);
            } catch (CLException ignored) {
                // already failing: keep the first error
            }
        }
        for (Slot s : slots)
            if (s != null) {
                releaseEvents(s);
                s.pending = false;
            }
    }

    /** Kernel time in ns over all batches (needs {@code opencl.profile=true}). */
    public long kernelNanos() {
        return kernelNanos;
    }

    /** Device filter kernel time in ns (needs {@code opencl.profile=true} and {@code opencl.filter=device}). */
    public long filterNanos() {
        return filterNanos;
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
        drain();
        for (int i = 0; i < 2; i++) {
            Slot s = slots[i];
            if (s == null) continue;
            for (cl_mem m : new cl_mem[]{s.sino, s.raw, s.filtered, s.out}) if (m != null) clReleaseMemObject(m);
            slots[i] = null;
        }
        for (cl_mem m : new cl_mem[]{consts, dconsts, response}) if (m != null) clReleaseMemObject(m);
        consts = dconsts = response = null;
        if (kernel != null) clReleaseKernel(kernel);
        if (filterKernel != null) clReleaseKernel(filterKernel);
        kernel = filterKernel = null;
        plan = null;
    }

    @Override
    public void close() {
        try {
            if (ctx != null) releaseJobResources();
            for (cl_command_queue q : new cl_command_queue[]{upQ, kQ, dnQ}) if (q != null) clReleaseCommandQueue(q);
        } catch (CLException e) {
            LOG.warn("opencl: error while releasing resources on {}: {}", device, CL.stringFor_errorCode(e.getStatus()));
        } finally {
            upQ = kQ = dnQ = null;
            packed = null;
            packedHalf = null;
        }
    }
}
