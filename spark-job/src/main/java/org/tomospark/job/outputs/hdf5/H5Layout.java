package org.tomospark.job.outputs.hdf5;

import java.nio.ByteBuffer;

/** Padding and the undefined address, shared by the encoders of the file's structures. */
final class H5Layout {
    /** The undefined address: all bits set. */
    static final long UNDEFINED = -1L;

    private H5Layout() {
    }

    /** {@code n} rounded up to a multiple of 8, the alignment of version 1 object header messages. */
    static int pad8(int n) {
        return (n + 7) & ~7;
    }

    static void putPadded(ByteBuffer b, byte[] bytes) {
        int end = b.position() + pad8(bytes.length);
        b.put(bytes);
        padTo(b, end);
    }

    /** Zeros up to {@code position}. */
    static void padTo(ByteBuffer b, int position) {
        if (b.position() > position)
            throw new IllegalStateException("encoded " + b.position() + " bytes past " + position);
        while (b.position() < position) b.put((byte) 0);
    }
}
