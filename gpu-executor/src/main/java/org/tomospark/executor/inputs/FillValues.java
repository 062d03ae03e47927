package org.tomospark.executor.inputs;

import io.jhdf.api.Dataset;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;

import java.nio.ByteBuffer;

/**
 * A dataset's fill value as stored: the bytes of one element in the dataset's type and byte order. HDF5 reads the
 * elements of a chunk never written as the fill value, which is zero where the dataset defines none.
 */
final class FillValues {
    private FillValues() {
    }

    /**
     * The bytes of {@link Dataset#getFillValue()}, or zeros where it is undefined.
     *
     * @param where names the file and dataset in errors
     * @throws IllegalArgumentException for a fill value of a type other than an integer or a 32- or 64-bit float
     */
    static byte[] element(Dataset ds, String where) {
        DataType type = ds.getDataType();
        Object value = ds.getFillValue();
        ByteBuffer b = ByteBuffer.allocate(type.getSize());
        if (value == null) return b.array();
        if (type instanceof FixedPoint f && (value instanceof Number || value instanceof Character)) {
            long v = value instanceof Character c ? c : ((Number) value).longValue();
            b.order(f.getByteOrder());
            switch (f.getSize()) {
                case 1 -> b.put((byte) v);
                case 2 -> b.putShort((short) v);
                case 4 -> b.putInt((int) v);
                case 8 -> b.putLong(v);
                default -> throw unsupported(where, type, value);
            }
            return b.array();
        }
        if (type instanceof FloatingPoint f && value instanceof Number n && (f.getSize() == 4 || f.getSize() == 8)) {
            b.order(f.getByteOrder());
            if (f.getSize() == 4) b.putFloat(n.floatValue());
            else b.putDouble(n.doubleValue());
            return b.array();
        }
        throw unsupported(where, type, value);
    }

    private static IllegalArgumentException unsupported(String where, DataType type, Object value) {
        return new IllegalArgumentException(where + " has chunks never written, which read as its fill value " + value
                + ", a " + type.getClass().getSimpleName() + " of " + type.getSize() + " bytes that tomospark cannot"
                + " fill in; write every chunk, or rewrite the dataset contiguous: h5repack -l DATASET:CONTI in.h5 out.h5");
    }
}
