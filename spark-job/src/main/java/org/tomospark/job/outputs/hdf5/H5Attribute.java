package org.tomospark.job.outputs.hdf5;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One attribute of the dataset: a UTF-8 string, or 64-bit floats or integers, a scalar or a one-dimensional array.
 * Encoded as an attribute message of version 1: the name, the datatype and the dataspace, each padded to 8 bytes,
 * then the value. A string is variable-length (what h5py reads as {@code str}): its bytes are an object in the file's
 * global heap ({@link H5GlobalHeap}) and the value is its length and heap reference.
 *
 * @param name  the attribute's name (not empty)
 * @param type  FLOAT64 or INT64 for numbers; null for a string
 * @param value the value's little-endian bytes, or the string's UTF-8 bytes
 * @param count the number of values; -1 for a scalar
 */
public record H5Attribute(String name, H5Type type, byte[] value, int count) {
    /** The largest message an object header of version 1 can hold. */
    private static final int MAX_MESSAGE = 0xFFFF;

    public H5Attribute {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) throw new IllegalArgumentException("an HDF5 attribute needs a name");
        value = value.clone();
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    public static H5Attribute text(String name, String text) {
        return new H5Attribute(name, null, text.getBytes(StandardCharsets.UTF_8), -1);
    }

    public static H5Attribute real(String name, double v) {
        return new H5Attribute(name, H5Type.FLOAT64, le(8).putDouble(v).array(), -1);
    }

    public static H5Attribute integer(String name, long v) {
        return new H5Attribute(name, H5Type.INT64, le(8).putLong(v).array(), -1);
    }

    public static H5Attribute reals(String name, double... v) {
        ByteBuffer b = le(8 * v.length);
        for (double x : v) b.putDouble(x);
        return new H5Attribute(name, H5Type.FLOAT64, b.array(), v.length);
    }

    public static H5Attribute integers(String name, long... v) {
        ByteBuffer b = le(8 * v.length);
        for (long x : v) b.putLong(x);
        return new H5Attribute(name, H5Type.INT64, b.array(), v.length);
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private byte[] nameBytes() {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(n, n.length + 1);
    }

    /** Whether the value is a string, kept in the global heap. */
    boolean isText() {
        return type == null;
    }

    /** A string's datatype: variable-length (class 9) of UTF-8 characters, whose base type is an unsigned byte. */
    private int datatypeBytes() {
        return type == null ? 8 + 12 : type.messageBytes();
    }

    /** Bytes of the value in the message: a string's is its length, the heap's address and the object's index. */
    private int dataBytes() {
        return type == null ? 4 + 8 + 4 : value.length;
    }

    private int dataspaceBytes() {
        return count < 0 ? 8 : 16;
    }

    /** Bytes of the attribute message, padding included. */
    int messageBytes() {
        int n = 8 + H5Layout.pad8(nameBytes().length) + H5Layout.pad8(datatypeBytes()) + H5Layout.pad8(dataspaceBytes())
                + dataBytes();
        int padded = H5Layout.pad8(n);
        if (padded > MAX_MESSAGE)
            throw new IllegalArgumentException("HDF5 attribute " + name + " is " + padded + " bytes; at most "
                    + MAX_MESSAGE + " fit in an object header");
        return padded;
    }

    /** {@code heap}, {@code heapIndex}: where a string's bytes are (unused for numbers). */
    void encode(ByteBuffer b, long heap, int heapIndex) {
        int start = b.position();
        byte[] n = nameBytes();
        b.put((byte) 1).put((byte) 0);
        b.putShort((short) n.length).putShort((short) datatypeBytes()).putShort((short) dataspaceBytes());
        H5Layout.putPadded(b, n);
        int at = b.position();
        if (type == null) {
            b.put((byte) (1 << 4 | 9)); // version 1, variable-length
            b.put((byte) 1).put((byte) 1).put((byte) 0); // a string, null-terminated when copied out; UTF-8
            b.putInt(4 + 8 + 4);
            H5Type.UINT8.encode(b);
        } else {
            type.encode(b);
        }
        H5Layout.padTo(b, at + H5Layout.pad8(datatypeBytes()));
        at = b.position();
        b.put((byte) 1).put((byte) (count < 0 ? 0 : 1)).put((byte) 0).put((byte) 0).putInt(0);
        if (count >= 0) b.putLong(count);
        H5Layout.padTo(b, at + H5Layout.pad8(dataspaceBytes()));
        if (type == null) b.putInt(value.length).putLong(heap).putInt(heapIndex);
        else b.put(value);
        H5Layout.padTo(b, start + messageBytes());
    }
}
