package org.tomospark.executor.backends.opencl;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import static org.jocl.CL.clSetKernelArg;

/**
 * Sets a kernel's arguments in the order of its signature, so that no call site numbers them. {@code REAL} arguments
 * (kernels built for double or float column terms) take {@link #real}.
 */
final class ClArgs {
    private final cl_kernel kernel;
    private final boolean fp64;
    private int next;

    /** @param fp64 whether the kernel's REAL type is double (else float) */
    ClArgs(cl_kernel kernel, boolean fp64) {
        this.kernel = kernel;
        this.fp64 = fp64;
    }

    ClArgs(cl_kernel kernel) {
        this(kernel, false);
    }

    ClArgs mem(cl_mem m) {
        clSetKernelArg(kernel, next++, Sizeof.cl_mem, Pointer.to(m));
        return this;
    }

    ClArgs i32(int v) {
        clSetKernelArg(kernel, next++, Sizeof.cl_int, Pointer.to(new int[]{v}));
        return this;
    }

    /** Local memory of {@code bytes} for the kernel's {@code __local} argument. */
    ClArgs local(long bytes) {
        clSetKernelArg(kernel, next++, bytes, null);
        return this;
    }

    /** A REAL argument: double where the kernel was built with doubles, else float. */
    ClArgs real(double v) {
        if (fp64) clSetKernelArg(kernel, next++, Sizeof.cl_double, Pointer.to(new double[]{v}));
        else clSetKernelArg(kernel, next++, Sizeof.cl_float, Pointer.to(new float[]{(float) v}));
        return this;
    }
}
