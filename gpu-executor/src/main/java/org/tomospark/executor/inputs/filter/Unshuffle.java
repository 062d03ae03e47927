package org.tomospark.executor.inputs.filter;

/**
 * The inverses of the byte shuffle (the bytes of each position in an element stored together) and the bit shuffle
 * (each bit of each element position stored together, eight elements to a byte), over one block of elements.
 */
final class Unshuffle {
    private Unshuffle() {
    }

    /**
     * Byte shuffle: {@code in} holds byte 0 of every element, then byte 1 of every element, and so on; bytes past the
     * last whole element are stored as they are.
     */
    static void bytes(byte[] in, int inOffset, byte[] out, int outOffset, int length, int typeSize) {
        int elements = length / typeSize;
        for (int j = 0; j < typeSize; j++) {
            int from = inOffset + j * elements;
            for (int i = 0; i < elements; i++) out[outOffset + i * typeSize + j] = in[from + i];
        }
        int whole = elements * typeSize;
        System.arraycopy(in, inOffset + whole, out, outOffset + whole, length - whole);
    }

    /**
     * Bit shuffle of {@code elements} elements (a multiple of 8): row {@code 8j + k} of {@code elements / 8} bytes
     * holds
     * bit k of byte j of every element, element {@code 8g + t} at bit t of the row's byte g. Each 8 x 8 block of bits
     * (eight rows, one byte of each) is transposed back into byte j of eight elements.
     */
    static void bits(byte[] in, int inOffset, byte[] out, int outOffset, int elements, int typeSize) {
        int rowBytes = elements / 8;
        for (int j = 0; j < typeSize; j++)
            for (int g = 0; g < rowBytes; g++) {
                long x = 0;
                for (int k = 0; k < 8; k++) x |= (in[inOffset + (8 * j + k) * rowBytes + g] & 0xffL) << (8 * k);
                x = transpose8x8(x);
                for (int t = 0; t < 8; t++) out[outOffset + (8 * g + t) * typeSize + j] = (byte) (x >>> (8 * t));
            }
    }

    /** Transposes the 8 x 8 bit matrix whose row r is byte r of {@code x} (bit c of the row is column c). */
    static long transpose8x8(long x) {
        long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
        x = x ^ t ^ (t << 7);
        t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
        x = x ^ t ^ (t << 14);
        t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
        return x ^ t ^ (t << 28);
    }
}
