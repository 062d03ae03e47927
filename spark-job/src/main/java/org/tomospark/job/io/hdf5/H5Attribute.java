package org.tomospark.job.io.hdf5;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One attribute of the dataset: a UTF-8 string (stored fixed-length, null-terminated), or 64-bit floats or integers,
 * a scalar or a one-dimensional array. Encoded as an attribute message of version 1: the name, the datatype and the
 * dataspace, each padded to 8 bytes, then the value.
 *
 * @param name  the attribute's name (not empty)
 * @param type  FLOAT64 or INT64 for numbers; null for a string
 * @param value the value's little-endian bytes (the string's UTF-8 bytes and a terminating 0)
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
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return new H5Attribute(name, null, Arrays.copyOf(utf8, utf8.length + 1), -1);
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

    private int datatypeBytes() {
        return type == null ? 8 : type.messageBytes();
    }

    private int dataspaceBytes() {
        return count < 0 ? 8 : 16;
    }

    /** Bytes of the attribute message, padding included. */
    int messageBytes() {
        int n = 8 + H5Layout.pad8(nameBytes().length) + H5Layout.pad8(datatypeBytes()) + H5Layout.pad8(dataspaceBytes())
                + value.length;
        int padded = H5Layout.pad8(n);
        if (padded > MAX_MESSAGE)
            throw new IllegalArgumentException("HDF5 attribute " + name + " is " + padded + " bytes; at most "
                    + MAX_MESSAGE + " fit in an object header");
        return padded;
    }

    void encode(ByteBuffer b) {
        int start = b.position();
        byte[] n = nameBytes();
        b.put((byte) 1).put((byte) 0);
        b.putShort((short) n.length).putShort((short) datatypeBytes()).putShort((short) dataspaceBytes());
        H5Layout.putPadded(b, n);
        int at = b.position();
        if (type == null) {
            b.put((byte) (1 << 4 | 3)); // version 1, string
            b.put((byte) (1 << 4)); // null-terminated, UTF-8
            b.put((byte) 0).put((byte) 0);
            b.putInt(value.length);
        } else {
            type.encode(b);
        }
        H5Layout.padTo(b, at + H5Layout.pad8(datatypeBytes()));
        at = b.position();
        b.put((byte) 1).put((byte) (count < 0 ? 0 : 1)).put((byte) 0).put((byte) 0).putInt(0);
        if (count >= 0) b.putLong(count);
        H5Layout.padTo(b, at + H5Layout.pad8(dataspaceBytes()));
        b.put(value);
        H5Layout.padTo(b, start + messageBytes());
    }
}
