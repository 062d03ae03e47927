package org.tomospark.executor.backends.opencl;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_mem;

import java.util.ArrayList;
import java.util.List;

import static org.jocl.CL.clSetKernelArg;

/**
 * Sets a kernel's arguments by the names its source gives its parameters ({@link ClKernel}), each checked against the
 * parameter's type: a memory object for a pointer or an image, an int, a REAL (double or float, as the program was
 * built), local memory.
 * A name the kernel does not declare, an argument set twice, or one left unset ({@link #complete}) fails naming the
 * kernel and its parameters: a parameter renamed, added or reordered in kernels/*.cl fails the OpenCL tests until the
 * Java code agrees.
 */
final class ClArgs {
    private final ClKernel kernel;
    private final boolean[] set;

    ClArgs(ClKernel kernel) {
        this.kernel = kernel;
        this.set = new boolean[kernel.params().size()];
    }

    /** A memory object: a buffer, for a pointer parameter in global or constant memory, or an image. */
    ClArgs mem(String name, cl_mem m) {
        int i = index(name, "a memory object");
        ClKernel.Param p = kernel.params().get(i);
        if (p.local() || !(p.type().endsWith("*") || p.type().startsWith("image"))) throw mismatch(p, "a memory object");
        clSetKernelArg(kernel.handle(), i, Sizeof.cl_mem, Pointer.to(m));
        return done(i);
    }

    ClArgs i32(String name, int v) {
        int i = index(name, "an int");
        ClKernel.Param p = kernel.params().get(i);
        if (!p.type().equals("int")) throw mismatch(p, "an int");
        clSetKernelArg(kernel.handle(), i, Sizeof.cl_int, Pointer.to(new int[]{v}));
        return done(i);
    }

    /** Local memory of {@code bytes} for a {@code __local} parameter. */
    ClArgs local(String name, long bytes) {
        int i = index(name, "local memory");
        ClKernel.Param p = kernel.params().get(i);
        if (!p.local()) throw mismatch(p, "local memory");
        clSetKernelArg(kernel.handle(), i, bytes, null);
        return done(i);
    }

    /** A real argument, of the kernel's declared type: double, float, or REAL (as the program was built). */
    ClArgs real(String name, double v) {
        int i = index(name, "a real");
        ClKernel.Param p = kernel.params().get(i);
        switch (p.type()) {
            case "double" -> clSetKernelArg(kernel.handle(), i, Sizeof.cl_double, Pointer.to(new double[]{v}));
            case "float" -> clSetKernelArg(kernel.handle(), i, Sizeof.cl_float, Pointer.to(new float[]{(float) v}));
            case "REAL" -> {
                if (kernel.fp64()) clSetKernelArg(kernel.handle(), i, Sizeof.cl_double, Pointer.to(new double[]{v}));
                else clSetKernelArg(kernel.handle(), i, Sizeof.cl_float, Pointer.to(new float[]{(float) v}));
            }
            default -> throw mismatch(p, "a real (float, double or REAL)");
        }
        return done(i);
    }

    /** Checks that every parameter has its argument, before the launch. */
    ClArgs complete() {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < set.length; i++) if (!set[i]) missing.add(kernel.params().get(i).name());
        if (!missing.isEmpty())
            throw new IllegalStateException("OpenCL kernel " + kernel.name() + ": parameters not set: " + missing + " (it declares "
                    + names() + ")");
        return this;
    }

    /** The parameter's index, not set yet; marked set by the caller once its argument is checked ({@link #done}). */
    private int index(String name, String what) {
        for (int i = 0; i < set.length; i++) {
            if (!kernel.params().get(i).name().equals(name)) continue;
            if (set[i]) throw new IllegalArgumentException("OpenCL kernel " + kernel.name() + ": parameter '" + name + "' set twice");
            return i;
        }
        throw new IllegalArgumentException("OpenCL kernel " + kernel.name() + " has no parameter '" + name + "' (given " + what
                + "); it declares " + names());
    }

    private ClArgs done(int i) {
        set[i] = true;
        return this;
    }

    private IllegalArgumentException mismatch(ClKernel.Param p, String given) {
        return new IllegalArgumentException("OpenCL kernel " + kernel.name() + ": parameter '" + p.name() + "' is "
                + (p.local() ? "__local " : "") + p.type() + ", given " + given);
    }

    private List<String> names() {
        List<String> l = new ArrayList<>();
        for (ClKernel.Param p : kernel.params()) l.add(p.name());
        return l;
    }
}
