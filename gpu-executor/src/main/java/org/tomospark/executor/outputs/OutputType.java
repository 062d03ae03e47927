package org.tomospark.executor.outputs;

import org.tomospark.executor.util.EnumIds;

/** The sample type of the output slices: float32 as computed, or a compact type of two bytes per value. */
public enum OutputType {
    /** The values as computed. */
    FLOAT32("float32", 4, 3),
    /** IEEE half precision, rounded to nearest even: 11 significant bits, values up to 65504. */
    FLOAT16("float16", 2, 3),
    /** Unsigned 16-bit counts of a linear scale over a range: value = offset + count × scale. */
    UINT16("uint16", 2, 1);

    private final String id;
    private final int bytes;
    private final int tiffSampleFormat;

    OutputType(String id, int bytes, int tiffSampleFormat) {
        this.id = id;
        this.bytes = bytes;
        this.tiffSampleFormat = tiffSampleFormat;
    }

    public String id() {
        return id;
    }

    /** Bytes of one sample. */
    public int bytes() {
        return bytes;
    }

    /** TIFF SampleFormat (tag 339): 1 unsigned integer, 3 IEEE floating point. */
    public int tiffSampleFormat() {
        return tiffSampleFormat;
    }

    public static OutputType parse(String s) {
        return EnumIds.parse(values(), OutputType::id, s, "output type");
    }
}
