package org.tomospark.executor.util;

import java.io.InvalidObjectException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Float arrays as little-endian float32 bytes, copied in bulk both ways: the serialized form of values that cross from
 * the Spark driver to executors and back (Java serialization writes a {@code float[]} one value at a time, through code
 * a cold JVM has not compiled yet).
 */
public final class FloatBytes {
    private FloatBytes() {
    }

    public static byte[] toBytes(float[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return b.array();
    }

    /** The values of {@code bytes}; a length that is not whole float32 values is a corrupt stream, named by {@code what}. */
    public static float[] toFloats(byte[] bytes, String what) throws InvalidObjectException {
        if (bytes.length % Float.BYTES != 0)
            throw new InvalidObjectException(what + ": " + bytes.length + " bytes are not whole float32 values");
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
