package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.testing.JavaSerialization;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slice's profiles come back from a task bit for bit, whole slice included, through Java serialization and through
 * Spark's Kryo serializer as the job configures it (registration required); and the serialized form is the arrays'
 * bytes, not a value-by-value stream.
 */
class SliceProfileTest {
    private static final float[] SPECIAL = {0f, -0f, Float.NaN, Float.intBitsToFloat(0x7fc01234), Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MAX_VALUE, 1e-30f, 3.25f};

    private static float[] values(int n, long seed) {
        Random r = new Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = i < SPECIAL.length ? SPECIAL[i] : (float) r.nextGaussian() * 1e3f;
        return v;
    }

    private static void assertSameBits(float[] expected, float[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++)
            assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]), "value " + i);
    }

    @Test
    void theMiddleSliceComesBackBitForBitThroughJavaSerialization() throws Exception {
        int w = 37, h = 23;
        SliceProfile p = new SliceProfile(11, values(w, 1), values(h, 2), values(w * h, 3));
        SliceProfile back = (SliceProfile) JavaSerialization.read(JavaSerialization.write(p));
        assertEquals(11, back.slice());
        assertSameBits(p.row(), back.row());
        assertSameBits(p.column(), back.column());
        assertSameBits(p.whole(), back.whole());
    }

    @Test
    void aProfileWithoutTheWholeSliceKeepsNone() throws Exception {
        SliceProfile p = new SliceProfile(4, values(5, 4), values(3, 5));
        SliceProfile back = (SliceProfile) JavaSerialization.read(JavaSerialization.write(p));
        assertNull(back.whole());
        assertSameBits(p.row(), back.row());
        assertSameBits(p.column(), back.column());
    }

    @Test
    void theSerializedFormIsTheArraysBytes() throws Exception {
        // a float[] written value by value would carry its class descriptor "[F"; the bytes are written as one block
        int w = 512, h = 512;
        SliceProfile p = new SliceProfile(0, values(w, 6), values(h, 7), values(w * h, 8));
        byte[] b = JavaSerialization.write(p);
        assertTrue(b.length < (w + h + w * h) * Float.BYTES + 1024, b.length + " bytes");
        assertEquals(-1, indexOf(b, new byte[]{(byte) 0x75, (byte) 0x72, 0, 2, '[', 'F'}), "no float[] in the stream");
        // the whole slice's first values appear as little-endian bytes
        byte[] first = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(p.whole()[0]).putFloat(p.whole()[1]).array();
        assertTrue(indexOf(b, first) > 0);
    }

    @Test
    void throughTheJobsKryoSerializer() {
        SparkConf conf = new SparkConf().set("spark.kryo.registrationRequired", "true");
        TomoKryoRegistrator.configure(conf);
        SerializerInstance kryo = new KryoSerializer(conf).newInstance();
        ClassTag<SliceProfile> tag = ClassTag$.MODULE$.apply(SliceProfile.class);
        SliceProfile p = new SliceProfile(7, values(64, 12), values(32, 13), values(64 * 32, 14));
        SliceProfile back = kryo.deserialize(kryo.serialize(p, tag), tag);
        assertEquals(7, back.slice());
        assertSameBits(p.whole(), back.whole());
        assertArrayEquals(p.row(), back.row());
        assertArrayEquals(p.column(), back.column());
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }
}
