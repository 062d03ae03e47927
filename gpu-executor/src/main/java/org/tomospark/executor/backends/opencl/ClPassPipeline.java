package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_mem;
import org.tomospark.executor.backend.MultiSlicePacker;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.SliceGeometry;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;

import static org.jocl.CL.CL_FALSE;
import static org.jocl.CL.CL_MEM_COPY_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_MEM_WRITE_ONLY;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clEnqueueCopyBufferToImage;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clEnqueueWriteImage;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clFlush;
import static org.jocl.CL.clGetEventProfilingInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clWaitForEvents;

/**
 * The FBP passes of a job on three in-order queues (uploads, kernels, downloads) and two slots of device and pinned host
 * buffers that alternate: a batch is cut into passes of the plan's slices, and the upload of pass i+1 and the download
 * of pass i−1 overlap the kernel of pass i, while the host packs the next pass. Also holds the job's projection
 * constants and the device filter's response.
 */
final class ClPassPipeline implements AutoCloseable {
    private final ClDeviceContext ctx;
    private final Object device;
    private final boolean profile;
    private cl_command_queue upQ, kQ, dnQ;

    private ClPlan plan;
    private ClBackprojectKernels kernels;
    private ClMemory memory;
    private cl_mem consts, dconsts, response;
    private final Slot[] slots = new Slot[2];
    private float[] packed;
    private short[] packedHalf;
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

    /** @param profile time the kernels ({@code opencl.profile}) */
    ClPassPipeline(ClDeviceContext ctx, ClRuntime.DeviceInfo device, boolean profile) {
        this.ctx = ctx;
        this.device = device;
        this.profile = profile;
        long props = profile ? CL_QUEUE_PROFILING_ENABLE : 0;
        try {
            upQ = clCreateCommandQueue(ctx.context(), device.device(), props, null);
            kQ = clCreateCommandQueue(ctx.context(), device.device(), props, null);
            dnQ = clCreateCommandQueue(ctx.context(), device.device(), props, null);
        } catch (CLException e) {
            close();
            throw new OpenClException("could not create command queues on " + device + ": " + CL.stringFor_errorCode(e.getStatus()), e);
        }
    }

    /**
     * Allocates a job's constants and both slots (after {@link #release} of the previous job's).
     *
     * @param deviceFilter the ramp filter when it runs on the device ({@link ClBackprojectKernels#filtersOnDevice}), else null
     * @return the host bytes the slots hold
     */
    long allocate(ClMemory memory, ClPlan plan, ClBackprojectKernels kernels, ProjectionTables t, SliceGeometry g,
                  FilterSpec deviceFilter) {
        this.memory = memory;
        this.plan = plan;
        this.kernels = kernels;
        int nproj = t.numProjections(), width = t.detectorWidth(), k = plan.channels();
        if (deviceFilter != null) {
            float[] resp = new RampFilter(width, nproj, deviceFilter).response();
            response = memory.buffer("ramp filter response", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (long) resp.length * 4,
                    Pointer.to(resp));
        }
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
        consts = memory.buffer("projection constants", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (long) c4.length * 4, Pointer.to(c4));
        if (plan.coordDouble())
            dconsts = memory.buffer("projection constants (double)", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (long) d4.length * 8,
                    Pointer.to(d4));
        long sinoBytes = (long) nproj * width * plan.bytesPerBin();
        long outBytes = (long) g.pixels() * k * 4;
        long host = 0;
        for (int i = 0; i < 2; i++) {
            Slot s = new Slot();
            slots[i] = s;
            s.sino = plan.kind() == ClPlan.Kind.IMAGE
                    ? memory.image(width, nproj, ClPlan.channelOrder(k), plan.half() ? CL.CL_HALF_FLOAT : CL.CL_FLOAT, sinoBytes)
                    : memory.buffer("sinogram buffer", CL_MEM_READ_ONLY, sinoBytes, null);
            s.out = memory.buffer("output buffer", CL_MEM_WRITE_ONLY, outBytes, null);
            if (deviceFilter != null) {
                long rb = (long) nproj * width * k * 4;
                s.raw = memory.buffer("unfiltered sinogram buffer", CL_MEM_READ_ONLY, rb, null);
                if (plan.kind() == ClPlan.Kind.IMAGE)
                    s.filtered = memory.buffer("filtered sinogram buffer", CL_MEM_READ_WRITE, sinoBytes, null);
            }
            long inBytes = deviceFilter != null ? (long) nproj * width * k * 4 : sinoBytes;
            s.hostIn = ByteBuffer.allocateDirect(Math.toIntExact(inBytes)).order(ByteOrder.nativeOrder());
            s.hostOut = ByteBuffer.allocateDirect(Math.toIntExact(outBytes)).order(ByteOrder.nativeOrder());
            host += inBytes + outBytes;
        }
        return host;
    }

    /**
     * Back-projects every slice of the batch into {@code out}, pass by pass.
     *
     * @param filterHere whether the sinograms are filtered on the device first
     */
    void run(SliceBatch batch, float[][] out, SliceGeometry g, int nproj, int width, boolean filterHere) {
        int pixels = g.pixels(), k = plan.channels();
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
            throw memory.error("back-projecting the batch at row " + batch.firstRow(), (long) nproj * width * plan.bytesPerBin(), e);
        }
    }

    private void enqueuePass(Slot s, float[][] sinos, int first, int n, int width, int nproj, SliceGeometry g, boolean filterHere) {
        int k = plan.channels();
        int bins = nproj * width;
        s.hostIn.clear();
        if (filterHere || !plan.half()) {
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
        long sinoBytes = (long) bins * plan.bytesPerBin();
        s.evUp = new cl_event();
        cl_event ready;
        if (filterHere) {
            clEnqueueWriteBuffer(upQ, s.raw, CL_FALSE, 0, (long) bins * k * 4, Pointer.to(s.hostIn), 0, null, s.evUp);
            s.evFilter = new cl_event();
            if (plan.kind() == ClPlan.Kind.IMAGE) {
                cl_event evF = new cl_event();
                kernels.enqueueFilter(kQ, s.raw, s.filtered, response, width, nproj, s.evUp, evF);
                clEnqueueCopyBufferToImage(kQ, s.filtered, s.sino, 0, new long[]{0, 0, 0}, new long[]{width, nproj, 1}, 1,
                        new cl_event[]{evF}, s.evFilter);
                if (profile) {
                    clWaitForEvents(1, new cl_event[]{evF});
                    filterNanos += elapsed(evF);
                }
                clReleaseEvent(evF);
            } else {
                kernels.enqueueFilter(kQ, s.raw, s.sino, response, width, nproj, s.evUp, s.evFilter);
            }
            ready = s.evFilter;
        } else {
            if (plan.kind() == ClPlan.Kind.IMAGE) {
                clEnqueueWriteImage(upQ, s.sino, CL_FALSE, new long[]{0, 0, 0}, new long[]{width, nproj, 1},
                        (long) width * plan.bytesPerBin(), 0, Pointer.to(s.hostIn), 0, null, s.evUp);
            } else {
                clEnqueueWriteBuffer(upQ, s.sino, CL_FALSE, 0, sinoBytes, Pointer.to(s.hostIn), 0, null, s.evUp);
            }
            ready = s.evUp;
        }
        s.evK = new cl_event();
        kernels.enqueueBackprojection(kQ, s.sino, consts, dconsts, nproj, width, g, s.out, ready, s.evK);
        s.evDown = new cl_event();
        clEnqueueReadBuffer(dnQ, s.out, CL_FALSE, 0, (long) g.pixels() * k * 4, Pointer.to(s.hostOut), 1, new cl_event[]{s.evK}, s.evDown);
        clFlush(upQ);
        clFlush(kQ);
        clFlush(dnQ);
        s.first = first;
        s.n = n;
        s.pending = true;
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
            if (s.evFilter != null && plan.kind() == ClPlan.Kind.ALU) filterNanos += elapsed(s.evFilter);
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

    /** Waits for every queue and forgets the slots' events (on cancellation, an error, or before releasing). */
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

    /** Kernel time in ns over all batches (with profiling). */
    long kernelNanos() {
        return kernelNanos;
    }

    /** Device filter kernel time in ns (with profiling and the device filter). */
    long filterNanos() {
        return filterNanos;
    }

    /** Gives back the job's device buffers (the queues stay). */
    void release() {
        drain();
        for (int i = 0; i < 2; i++) {
            Slot s = slots[i];
            if (s == null) continue;
            for (cl_mem m : new cl_mem[]{s.sino, s.raw, s.filtered, s.out}) if (m != null) clReleaseMemObject(m);
            slots[i] = null;
        }
        for (cl_mem m : new cl_mem[]{consts, dconsts, response}) if (m != null) clReleaseMemObject(m);
        consts = dconsts = response = null;
        plan = null;
        kernels = null;
    }

    @Override
    public void close() {
        try {
            release();
        } finally {
            for (cl_command_queue q : new cl_command_queue[]{upQ, kQ, dnQ}) if (q != null) clReleaseCommandQueue(q);
            upQ = kQ = dnQ = null;
            packed = null;
            packedHalf = null;
        }
    }
}
