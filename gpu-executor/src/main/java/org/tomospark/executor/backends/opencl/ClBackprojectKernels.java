package org.tomospark.executor.backends.opencl;

import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_mem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.geometry.SliceGeometry;

import static org.jocl.CL.clEnqueueNDRangeKernel;

/**
 * The FBP kernels of one plan on one context: the back-projection (kernels/bp_image.cl or kernels/bp_alu.cl) and, where
 * the ramp filter runs on the device, kernels/ramp_filter.cl. Built with the plan's {@code -D} options (programs cached
 * per context), launched with their arguments set by the names the kernel sources give them ({@link ClArgs}) and their
 * work-group shapes.
 */
final class ClBackprojectKernels implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClBackprojectKernels.class);

    private final ClPlan plan;
    private final int aluGroup;
    private final int aluPix;
    private final int imageGroup;
    private final int nfft;
    private final int filterLocal;
    private ClKernel bp;
    private ClKernel filter;

    private ClBackprojectKernels(ClPlan plan, int aluGroup, int aluPix, int imageGroup, int nfft, int filterLocal) {
        this.plan = plan;
        this.aluGroup = aluGroup;
        this.aluPix = aluPix;
        this.imageGroup = imageGroup;
        this.nfft = nfft;
        this.filterLocal = filterLocal;
    }

    /**
     * The device filter's FFT length for rows of {@code width} bins, or 0 where the host filters: opencl.filter=host, a
     * job without a device filter, or a device whose local memory cannot hold the FFT (said in the log).
     */
    static int deviceFilterLength(ClDeviceContext ctx, Object device, FilterSpec deviceFilter, BackendOptions o, int width) {
        if (deviceFilter == null || !o.get(OpenClKeys.FILTER).equals("device")) return 0;
        int nfft = FilterSpec.paddedLength(width);
        if ((long) nfft * 8 > ctx.localMem) {
            LOG.warn("opencl: ramp filter of FFT length {} needs {} bytes of local memory but {} has {}; filtering on the host",
                    nfft, nfft * 8L, device, ctx.localMem);
            return 0;
        }
        return nfft;
    }

    /**
     * Builds the kernels. {@code deviceFilter} and {@code nfft}: the device ramp filter ({@link #deviceFilterLength}), or
     * null and 0.
     *
     * @throws OpenClException where an ALU tile does not fit the device's local memory, or a program does not build
     */
    static ClBackprojectKernels build(ClDeviceContext ctx, Object device, ClPlan plan, BackendOptions o, FilterSpec deviceFilter,
                                      int nfft) {
        int k = plan.channels();
        int aluGroup = o.get(OpenClKeys.ALU_GROUP), aluPix = o.get(OpenClKeys.ALU_PIX);
        String extraDefs = o.get(OpenClKeys.DEFINE);
        int filterLocal = nfft == 0 ? 0 : (int) Math.min(256, Math.min(ctx.maxWorkGroup, nfft / 2));
        ClBackprojectKernels ks = new ClBackprojectKernels(plan, aluGroup, aluPix, ctx.maxWorkGroup >= 256 ? 16 : 8, nfft, filterLocal);
        try {
            if (plan.kind() == ClPlan.Kind.IMAGE) {
                ClProgramSpec image = ClPrograms.bpImage().linear(plan.linear()).channels(k).coordDouble(plan.coordDouble()).build();
                ks.bp = ClKernel.create(ctx.program(image.withExtra(extraDefs)), ClPrograms.BpImage.BP_IMAGE);
            } else {
                int pchunk = 16;
                long localBytes = aluLocalBytes(pchunk, aluGroup, aluPix, k);
                while (localBytes > ctx.localMem && pchunk > 1) {
                    pchunk /= 2;
                    localBytes = aluLocalBytes(pchunk, aluGroup, aluPix, k);
                }
                if (localBytes > ctx.localMem)
                    throw new OpenClException("opencl alu kernel: a " + aluGroup * aluPix + "-pixel tile needs " + localBytes
                            + " bytes of local memory but " + device + " has " + ctx.localMem + "; lower opencl.alu.pix");
                ClProgramSpec alu = ClPrograms.bpAlu().linear(plan.linear()).channels(k).coordDouble(plan.coordDouble())
                        .halfStorage(plan.half()).group(aluGroup).pix(aluPix).pchunk(pchunk).build();
                ks.bp = ClKernel.create(ctx.program(alu.withExtra(extraDefs)), ClPrograms.BpAlu.BP_ALU);
            }
            if (nfft > 0) {
                ClProgramSpec filter = ClPrograms.rampFilter().nfft(nfft).log2n(Integer.numberOfTrailingZeros(nfft)).channels(k)
                        .edgePad(deviceFilter.padding() == Padding.EDGE).outHalf(plan.half()).build();
                ks.filter = ClKernel.create(ctx.program(filter.withExtra(extraDefs)), ClPrograms.RampFilter.RAMP_FILTER);
            }
            return ks;
        } catch (RuntimeException e) {
            ks.close();
            throw e;
        }
    }

    /** Local memory of one ALU work-group: the cached bins of {@code pchunk} projections and their constants. */
    private static long aluLocalBytes(int pchunk, int aluGroup, int aluPix, int k) {
        return (long) pchunk * (aluGroup * aluPix * 3 / 2 + 4) * k * 4 + pchunk * 4L;
    }

    /** Whether the ramp filter runs on the device. */
    boolean filtersOnDevice() {
        return filter != null;
    }

    int nfft() {
        return nfft;
    }

    /**
     * Filters the {@code nproj} rows of every slice of {@code raw} (float, interleaved) into {@code target} (the plan's
     * bin type), after {@code waitFor}.
     */
    void enqueueFilter(cl_command_queue q, cl_mem raw, cl_mem target, cl_mem response, int width, int nproj, cl_event waitFor,
                       cl_event done) {
        filter.args().mem("raw", raw).mem("out", target).mem("response", response).i32("width", width).local("buf", (long) nfft * 8)
                .complete();
        long[] global = {(long) filterLocal * nproj * plan.channels()};
        long[] local = {filterLocal};
        clEnqueueNDRangeKernel(q, filter.handle(), 1, null, global, local, 1, new cl_event[]{waitFor}, done);
    }

    /**
     * Back-projects the plan's slices of {@code sino} into {@code out} (ROI pixels × slices, float), after {@code waitFor}.
     *
     * @param consts  cos, sin and offset per projection (float4)
     * @param dconsts the same in double (double4), for a plan of double coordinates; else null
     */
    void enqueueBackprojection(cl_command_queue q, cl_mem sino, cl_mem consts, cl_mem dconsts, int nproj, int width, SliceGeometry g,
                               cl_mem out, cl_event waitFor, cl_event done) {
        ClArgs a = bp.args().mem("sino", sino).mem("consts", consts);
        if (plan.coordDouble()) a.mem("dconsts", dconsts);
        a.i32("nproj", nproj);
        if (plan.kind() == ClPlan.Kind.ALU) a.i32("width", width);
        a.i32("cols", g.roiCols()).i32("rows", g.roiRows()).mem("out", out).complete();
        long[] global, local;
        if (plan.kind() == ClPlan.Kind.IMAGE) {
            global = new long[]{roundUp(g.roiCols(), imageGroup), roundUp(g.roiRows(), imageGroup)};
            local = new long[]{imageGroup, imageGroup};
        } else {
            int tile = aluGroup * aluPix;
            global = new long[]{(long) ((g.roiCols() + tile - 1) / tile) * aluGroup, (long) ((g.roiRows() + tile - 1) / tile) * aluGroup};
            local = new long[]{aluGroup, aluGroup};
        }
        clEnqueueNDRangeKernel(q, bp.handle(), 2, null, global, local, 1, new cl_event[]{waitFor}, done);
    }

    private static long roundUp(int v, int m) {
        return (long) ((v + m - 1) / m) * m;
    }

    @Override
    public void close() {
        if (bp != null) bp.release();
        if (filter != null) filter.release();
        bp = filter = null;
    }
}
