package org.tomospark.executor.backends.cuda;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import jcuda.driver.CUresult;

/**
 * Tensor maps for Hopper's tensor copies (TMA): the 128-byte descriptor a kernel takes by value that tells the copy
 * engine a tensor's address, sizes, strides and box. The driver builds it ({@code cuTensorMapEncodeTiled}, CUDA 12.0
 * on), which JCuda does not bind: this class calls it in {@code libcuda.so.1} through JNA, and does nothing else.
 * Driver calls only; the caller checks what the copy engine asks (see {@link #checkTiled}) before it encodes.
 */
final class TensorMaps {
    /** Bytes of a CUtensorMap. */
    static final int BYTES = 128;
    /** The largest box side, in elements. */
    static final int MAX_BOX = 256;
    /** CUtensorMapDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT32 (4-byte elements: the pairs are words of two halves). */
    private static final int FLOAT32 = 7;
    /** CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (zeros). */
    private static final int NONE = 0;
    /** CU_TENSOR_MAP_L2_PROMOTION_L2_128B. */
    private static final int L2_128B = 2;
    /** A CUtensorMap is aligned to 64 bytes. */
    private static final int ALIGNMENT = 64;

    private static final Encoder ENCODER = Encoder.find();

    private TensorMaps() {
    }

    /** Whether the driver's encoder could be found; else {@link #unavailableReason()} says why. */
    static boolean available() {
        return ENCODER.function != null;
    }

    /** Why tensor maps cannot be made here (null when they can). */
    static String unavailableReason() {
        return ENCODER.reason;
    }

    /**
     * Refuses what the copy engine does not take for a two-dimensional tensor of 4-byte elements: rows whose bytes are
     * not a multiple of 16, a box side beyond {@link #MAX_BOX} or a box row not a multiple of 16 bytes.
     */
    static void checkTiled(long rowBytes, int boxCols, int boxRows) {
        if (rowBytes % 16 != 0)
            throw new IllegalArgumentException("tensor map: rows of " + rowBytes + " bytes, not a multiple of 16");
        if (boxCols < 1 || boxRows < 1 || boxCols > MAX_BOX || boxRows > MAX_BOX)
            throw new IllegalArgumentException("tensor map: a box of " + boxCols + " x " + boxRows + " (1 to " + MAX_BOX + " a side)");
        if (boxCols * 4L % 16 != 0)
            throw new IllegalArgumentException("tensor map: box rows of " + boxCols * 4L + " bytes, not a multiple of 16");
    }

    /**
     * The map of a two-dimensional tensor of 4-byte elements at device address {@code address}: {@code cols} × {@code
     * rows}, rows {@code rowBytes} apart, boxes of {@code boxCols} × {@code boxRows}; what lies outside it reads as zero.
     */
    static byte[] tiled2d(long address, long cols, long rows, long rowBytes, int boxCols, int boxRows) {
        checkTiled(rowBytes, boxCols, boxRows);
        if (!available()) throw new IllegalStateException("tensor map: " + unavailableReason());
        try (Memory block = new Memory(BYTES + ALIGNMENT)) {
            Pointer map = block.align(ALIGNMENT);
            int r = ENCODER.function.invokeInt(new Object[]{map, FLOAT32, 2, new Pointer(address), new long[]{cols, rows},
                    new long[]{rowBytes}, new int[]{boxCols, boxRows}, new int[]{1, 1}, NONE, NONE, L2_128B, NONE});
            if (r != CUresult.CUDA_SUCCESS)
                throw new CudaException("encoding the tensor map of " + cols + " x " + rows + " words, rows " + rowBytes
                        + " bytes apart, boxes of " + boxCols + " x " + boxRows, CUresult.stringFor(r), null);
            return map.getByteArray(0, BYTES);
        }
    }

    /** The driver's cuTensorMapEncodeTiled, or why there is none. */
    private record Encoder(Function function, String reason) {
        static Encoder find() {
            try {
                return new Encoder(NativeLibrary.getInstance("libcuda.so.1").getFunction("cuTensorMapEncodeTiled"), null);
            } catch (LinkageError | RuntimeException e) {
                return new Encoder(null, "the CUDA driver's cuTensorMapEncodeTiled could not be loaded (" + e.getMessage() + ")");
            }
        }
    }
}
