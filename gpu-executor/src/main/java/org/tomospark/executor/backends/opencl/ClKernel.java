package org.tomospark.executor.backends.opencl;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_program;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_LOCAL;
import static org.jocl.CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER;
import static org.jocl.CL.CL_KERNEL_ARG_NAME;
import static org.jocl.CL.CL_KERNEL_ARG_TYPE_NAME;
import static org.jocl.CL.CL_KERNEL_NUM_ARGS;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clGetKernelArgInfo;
import static org.jocl.CL.clGetKernelInfo;
import static org.jocl.CL.clReleaseKernel;

/**
 * A kernel of a built program with its parameters as the OpenCL compiler read them from kernels/*.cl (names, types,
 * whether in local memory: programs are built with {@code -cl-kernel-arg-info}), so that {@link ClArgs} binds arguments
 * by the names the kernel source declares, in the order it declares them: the .cl file is the only statement of a
 * kernel's parameter list, conditional parameters ({@code #if COORD_DOUBLE}) included.
 */
final class ClKernel {
    /** A parameter: its name, its type as written (REAL resolved: float or double), whether it is local memory. */
    record Param(String name, String type, boolean local) {
    }

    private final cl_kernel kernel;
    private final String name;
    private final List<Param> params;
    private final boolean fp64;

    private ClKernel(cl_kernel kernel, String name, List<Param> params, boolean fp64) {
        this.kernel = kernel;
        this.name = name;
        this.params = List.copyOf(params);
        this.fp64 = fp64;
    }

    /** Creates the kernel {@code name} of a built program and reads its parameters. */
    static ClKernel create(cl_program program, String name) {
        return create(program, name, false);
    }

    /**
     * As {@link #create(cl_program, String)}, for a program whose REAL type (a typedef, which the compiler may report by
     * that name) is double where {@code fp64}, else float.
     */
    static ClKernel create(cl_program program, String name, boolean fp64) {
        cl_kernel k = clCreateKernel(program, name, null);
        try {
            int[] count = new int[1];
            clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, Sizeof.cl_uint, Pointer.to(count), null);
            List<Param> params = new ArrayList<>();
            for (int i = 0; i < count[0]; i++) {
                int[] address = new int[1];
                clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, Sizeof.cl_uint, Pointer.to(address), null);
                params.add(new Param(text(k, i, CL_KERNEL_ARG_NAME), text(k, i, CL_KERNEL_ARG_TYPE_NAME),
                        address[0] == CL_KERNEL_ARG_ADDRESS_LOCAL));
            }
            return new ClKernel(k, name, params, fp64);
        } catch (RuntimeException e) {
            clReleaseKernel(k);
            throw e;
        }
    }

    private static String text(cl_kernel k, int arg, int what) {
        long[] size = new long[1];
        clGetKernelArgInfo(k, arg, what, 0, null, size);
        byte[] b = new byte[(int) size[0]];
        clGetKernelArgInfo(k, arg, what, b.length, Pointer.to(b), null);
        int n = 0;
        while (n < b.length && b[n] != 0) n++;
        return new String(b, 0, n, StandardCharsets.US_ASCII).trim();
    }

    cl_kernel handle() {
        return kernel;
    }

    String name() {
        return name;
    }

    /** Whether the program's REAL type is double. */
    boolean fp64() {
        return fp64;
    }

    /** The parameters in declaration order. */
    List<Param> params() {
        return params;
    }

    /** A new argument list for one launch. */
    ClArgs args() {
        return new ClArgs(this);
    }

    void release() {
        clReleaseKernel(kernel);
    }
}
