package org.tomospark.executor.backends.cuda;

import jcuda.NativePointerObject;
import jcuda.Pointer;

import java.util.ArrayList;
import java.util.List;

/**
 * A kernel's argument list, filled by name through the setters of its generated subclass in {@link KernelCalls} (one
 * per parameter list of kernels/signatures.cuh, in declaration order) and passed to cuLaunchKernel by {@link #build()}.
 * Each parameter is set once; the list is complete before it is launched.
 *
 * @param <S> the generated builder, returned by every setter
 */
abstract class KernelArgs<S extends KernelArgs<S>> {
    private final KernelCalls.Signature signature;
    private final List<String> names;
    private final Pointer[] values;

    KernelArgs(KernelCalls.Signature signature) {
        this.signature = signature;
        this.names = signature.params;
        this.values = new Pointer[names.size()];
    }

    /** The parameter list these arguments are for. */
    final KernelCalls.Signature signature() {
        return signature;
    }

    @SuppressWarnings("unchecked")
    private S set(int index, Pointer value) {
        if (values[index] != null)
            throw new IllegalArgumentException("kernel parameter '" + names.get(index) + "' of " + signature + " set twice");
        values[index] = value;
        return (S) this;
    }

    /** A device pointer or a handle (a texture object), passed as the address it holds. */
    final S pointer(int index, NativePointerObject value) {
        return set(index, Pointer.to(value));
    }

    /** A handle given as its value (0: none). */
    final S handle(int index, long value) {
        return set(index, Pointer.to(new long[]{value}));
    }

    final S i32(int index, int value) {
        return set(index, Pointer.to(new int[]{value}));
    }

    final S i64(int index, long value) {
        return set(index, Pointer.to(new long[]{value}));
    }

    final S f32(int index, float value) {
        return set(index, Pointer.to(new float[]{value}));
    }

    final S f64(int index, double value) {
        return set(index, Pointer.to(new double[]{value}));
    }

    /** A struct passed by value as these bytes (a tensor map), of the size the kernel declares. */
    final S bytes(int index, byte[] value, int size) {
        if (value.length != size)
            throw new IllegalArgumentException("kernel parameter '" + names.get(index) + "' of " + signature + " takes " + size
                    + " bytes, not " + value.length);
        return set(index, Pointer.to(value.clone()));
    }

    /** Names that are still missing, in declaration order. */
    final List<String> missing() {
        List<String> m = new ArrayList<>();
        for (int i = 0; i < values.length; i++) if (values[i] == null) m.add(names.get(i));
        return m;
    }

    /** The parameter array in declaration order; fails naming the missing parameters. */
    final Pointer build() {
        List<String> m = missing();
        if (!m.isEmpty()) throw new IllegalStateException("kernel " + signature + ": parameters not set: " + m);
        return Pointer.to(values.clone());
    }

    /** The parameter names in the order {@link #build()} passes them. */
    final List<String> order() {
        return names;
    }
}
