package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Guarded;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_mem;
import org.jocl.cl_program;

import java.util.ArrayList;
import java.util.List;

import static org.jocl.CL.CL_MEM_COPY_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_TRUE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseMemObject;

/**
 * The iterative methods' Joseph projector pair on an OpenCL device (kernels/joseph.cl): the matrix of the Java
 * {@link org.tomospark.executor.iterative.JosephProjector}, k interleaved slices per pass, one work-item per ray
 * (forward) or per pixel (adjoint, a gather). Geometry in double where the device has cl_khr_fp64, else float. Each call
 * uploads its input with the guards of {@link Guarded}, runs one kernel and reads the result back; the projection
 * tables stay on the device. One caller at a time.
 */
public final class OpenClProjector implements Projector, AutoCloseable {
    private final int k;
    private final int width;
    private final int rows;
    private final int cols;
    private final int nproj;
    private final ClDeviceContext ctx;
    private final cl_command_queue queue;
    private final ClKernel forward;
    private final ClKernel back;
    private final cl_mem cosT;
    private final cl_mem sinT;
    private final cl_mem offT;
    private final boolean fp64;

    /**
     * @param device an opencl device selector (backend.device; empty for the first GPU, else the first device)
     */
    public OpenClProjector(ScanGeometry scan, SliceGeometry slice, int k, String device) {
        if (k < 1 || k > 16) throw new IllegalArgumentException("opencl projector: 1 to 16 slices per pass, got " + k);
        String why = ClRuntime.unavailableReason();
        if (why != null) throw new OpenClException("opencl projector: " + why);
        this.k = k;
        this.width = scan.detectorWidth();
        this.rows = slice.roiRows();
        this.cols = slice.roiCols();
        this.nproj = scan.numProjections();
        ClRuntime.DeviceInfo info = ClRuntime.select(DeviceSelector.parse(device));
        this.ctx = ClRuntime.context(info);
        this.fp64 = ctx.hasExtension("cl_khr_fp64");
        try {
            queue = clCreateCommandQueue(ctx.context(), info.device(), 0, null);
            cl_program p = ctx.program(ClPrograms.joseph().k(k).useDouble(fp64).build());
            forward = ClKernel.create(p, ClPrograms.Joseph.JOSEPH_FORWARD, fp64);
            back = ClKernel.create(p, ClPrograms.Joseph.JOSEPH_BACK, fp64);
            ProjectionTables t = new ProjectionTables(scan, slice);
            double[] c = new double[nproj], s = new double[nproj], o = new double[nproj];
            for (int i = 0; i < nproj; i++) {
                c[i] = t.cos(i);
                s[i] = t.sin(i);
                o[i] = t.offset(i);
            }
            cosT = table(c);
            sinT = table(s);
            offT = table(o);
        } catch (CLException e) {
            throw new OpenClException("opencl projector on " + info + ": " + CL.stringFor_errorCode(e.getStatus()), e);
        }
    }

    private cl_mem table(double[] v) {
        if (fp64) return input(Pointer.to(v), (long) v.length * Sizeof.cl_double);
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) f[i] = (float) v[i];
        return input(Pointer.to(f), (long) f.length * Sizeof.cl_float);
    }

    private cl_mem input(Pointer host, long bytes) {
        return clCreateBuffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Math.max(4, bytes), host, null);
    }

    @Override
    public Shape shape() {
        return new Shape(k, rows, cols, nproj, width);
    }

    @Override
    public void forward(float[] image, float[] sino, int[] angles) {
        if (angles.length == 0) return;
        List<cl_mem> mems = new ArrayList<>();
        try {
            float[] byRows = Guarded.lines(image, rows, cols, k, false), byColumns = Guarded.lines(image, rows, cols, k, true);
            cl_mem r = keep(mems, input(Pointer.to(byRows), byRows.length * 4L));
            cl_mem c = keep(mems, input(Pointer.to(byColumns), byColumns.length * 4L));
            cl_mem a = keep(mems, input(Pointer.to(angles), angles.length * 4L));
            cl_mem out = keep(mems, clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, (long) sino.length * 4, null, null));
            forward.args().mem("byRows", r).mem("byColumns", c).mem("sino", out).mem("angles", a).mem("cosT", cosT)
                    .mem("sinT", sinT).mem("offT", offT).i32("rows", rows).i32("cols", cols).i32("width", width).complete();
            clEnqueueNDRangeKernel(queue, forward.handle(), 2, null, new long[]{width, angles.length}, null, 0, null, null);
            // only the rows of these angles: read each back into place
            int row = width * k;
            float[] all = new float[sino.length];
            clEnqueueReadBuffer(queue, out, CL_TRUE, 0, (long) sino.length * 4, Pointer.to(all), 0, null, null);
            for (int p : angles) System.arraycopy(all, p * row, sino, p * row, row);
        } catch (CLException e) {
            throw new OpenClException("opencl forward projection: " + CL.stringFor_errorCode(e.getStatus()), e);
        } finally {
            for (cl_mem m : mems) clReleaseMemObject(m);
        }
    }

    @Override
    public void back(float[] sino, float[] image, int[] angles) {
        List<cl_mem> mems = new ArrayList<>();
        try {
            float[] guarded = Guarded.sinogram(sino, nproj, width, k, angles);
            cl_mem s = keep(mems, input(Pointer.to(guarded), guarded.length * 4L));
            cl_mem a = keep(mems, input(Pointer.to(angles), Math.max(1, angles.length) * 4L));
            cl_mem out = keep(mems, clCreateBuffer(ctx.context(), CL_MEM_READ_WRITE, (long) image.length * 4, null, null));
            back.args().mem("sino", s).mem("image", out).mem("angles", a).i32("nangles", angles.length).mem("cosT", cosT)
                    .mem("sinT", sinT).mem("offT", offT).i32("rows", rows).i32("cols", cols).i32("width", width).complete();
            clEnqueueNDRangeKernel(queue, back.handle(), 2, null, new long[]{cols, rows}, null, 0, null, null);
            clEnqueueReadBuffer(queue, out, CL_TRUE, 0, (long) image.length * 4, Pointer.to(image), 0, null, null);
        } catch (CLException e) {
            throw new OpenClException("opencl back-projection: " + CL.stringFor_errorCode(e.getStatus()), e);
        } finally {
            for (cl_mem m : mems) clReleaseMemObject(m);
        }
    }

    private static cl_mem keep(List<cl_mem> mems, cl_mem m) {
        mems.add(m);
        return m;
    }

    @Override
    public void close() {
        for (cl_mem m : new cl_mem[]{cosT, sinT, offT}) clReleaseMemObject(m);
        forward.release();
        back.release();
        clReleaseCommandQueue(queue);
    }
}
