package org.tomospark.executor.outputs;

import org.tomospark.executor.backend.Half;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How slice values are stored: as float32, as float16, or as uint16 counts of a linear scale from {@code min} (count 0)
 * to {@code max} (count 65535), so value = offset + count × scale with offset = min and scale = (max − min)/65535.
 * Values outside the range are clamped to it, NaN stored as 0. A uint16 range may also be left to be found from the
 * data ({@link #fromPercentiles}): the driver reconstructs one slice and takes two percentiles of its values
 * ({@link #resolved}) before any slice is written.
 *
 * @param type        the sample type
 * @param min         the value of count 0 (uint16 only; NaN otherwise, and while the range is still to be found)
 * @param max         the value of count 65535 (uint16 only; NaN otherwise, and while the range is still to be found)
 * @param percentiles the percentiles {low, high} the range comes from, or null for a range given outright
 */
public record SampleCoding(OutputType type, double min, double max, double[] percentiles) implements Serializable {
    public static final SampleCoding FLOAT32 = new SampleCoding(OutputType.FLOAT32, Double.NaN, Double.NaN, null);
    public static final SampleCoding FLOAT16 = new SampleCoding(OutputType.FLOAT16, Double.NaN, Double.NaN, null);
    private static final int MAX_COUNT = 65535;

    public SampleCoding {
        if (type == null) type = OutputType.FLOAT32;
        if (type != OutputType.UINT16) {
            min = Double.NaN;
            max = Double.NaN;
            percentiles = null;
        } else if (percentiles != null) {
            if (percentiles.length != 2 || !(percentiles[0] >= 0 && percentiles[0] < percentiles[1]
                    && percentiles[1] <= 100))
                throw new IllegalArgumentException("output.percentiles: expected LOW,HIGH with 0 <= LOW < HIGH <= 100");
            percentiles = percentiles.clone();
        }
        boolean pending = type == OutputType.UINT16 && percentiles != null && Double.isNaN(min) && Double.isNaN(max);
        if (type == OutputType.UINT16 && !pending && !(Double.isFinite(min) && Double.isFinite(max) && max > min))
            throw new IllegalArgumentException("output.range: uint16 output needs a range MIN,MAX with MIN < MAX, got "
                    + min + ", " + max);
    }

    /** uint16 counts over [min, max]. */
    public static SampleCoding uint16(double min, double max) {
        return new SampleCoding(OutputType.UINT16, min, max, null);
    }

    /** uint16 counts over a range to be found from percentiles {@code low} and {@code high} of one slice. */
    public static SampleCoding fromPercentiles(double low, double high) {
        return new SampleCoding(OutputType.UINT16, Double.NaN, Double.NaN, new double[]{low, high});
    }

    /** Whether the range is still to be found ({@link #resolved}). */
    public boolean pending() {
        return type == OutputType.UINT16 && Double.isNaN(min);
    }

    /**
     * The coding with its range found: the low and high percentiles of {@code values} (NaN left out, linear
     * interpolation between order statistics, as numpy's default), widened to a tiny interval if they are equal.
     */
    public SampleCoding resolved(float[] values) {
        double[] v = new double[values.length];
        int n = 0;
        for (float f : values) if (!Float.isNaN(f)) v[n++] = f;
        if (n == 0) throw new IllegalArgumentException("output.range=auto: the slice it is taken from holds no values");
        double[] sorted = Arrays.copyOf(v, n);
        Arrays.sort(sorted);
        double lo = percentile(sorted, percentiles[0]), hi = percentile(sorted, percentiles[1]);
        if (!(hi > lo)) hi = lo + Math.max(Math.ulp(lo) * MAX_COUNT, Double.MIN_NORMAL);
        return new SampleCoding(OutputType.UINT16, lo, hi, percentiles);
    }

    private static double percentile(double[] sorted, double p) {
        double pos = p / 100 * (sorted.length - 1);
        int i = (int) Math.floor(pos);
        if (i >= sorted.length - 1) return sorted[sorted.length - 1];
        return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
    }

    @Override
    public double[] percentiles() {
        return percentiles == null ? null : percentiles.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SampleCoding c && c.type == type && Double.compare(c.min, min) == 0
                && Double.compare(c.max, max) == 0 && Arrays.equals(c.percentiles, percentiles);
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + Double.hashCode(min) * 7 + Double.hashCode(max);
    }

    /** The value one uint16 count stands for (NaN for the float types). */
    public double scale() {
        return type == OutputType.UINT16 ? (max - min) / MAX_COUNT : Double.NaN;
    }

    /** The value of count 0 (NaN for the float types). */
    public double offset() {
        return type == OutputType.UINT16 ? min : Double.NaN;
    }

    /** The uint16 count of a value: rounded to nearest (ties to even), clamped to [0, 65535]; NaN gives 0. */
    public int count(float v) {
        double c = Math.rint((v - min) / (max - min) * MAX_COUNT);
        if (!(c > 0)) return 0;
        return c >= MAX_COUNT ? MAX_COUNT : (int) c;
    }

    /** Writes {@code pixels} in this coding at {@code dst}'s position (its byte order). */
    public void put(float[] pixels, ByteBuffer dst) {
        put(FloatBuffer.wrap(pixels), dst);
    }

    /** Writes {@code pixels} (position 0 to limit) in this coding at {@code dst}'s position (its byte order). */
    public void put(FloatBuffer pixels, ByteBuffer dst) {
        if (pending()) throw new IllegalStateException("uint16 output: the range from the percentiles was never found");
        int n = pixels.limit();
        switch (type) {
            case FLOAT32 -> dst.asFloatBuffer().put(pixels.duplicate().position(0));
            case FLOAT16 -> {
                int at = dst.position();
                for (int i = 0; i < n; i++) dst.putShort(at + 2 * i, Half.fromFloat(pixels.get(i)));
            }
            case UINT16 -> {
                int at = dst.position();
                for (int i = 0; i < n; i++) dst.putShort(at + 2 * i, (short) count(pixels.get(i)));
            }
        }
    }

    /** The values back from {@code n} samples at {@code src}'s position (its byte order). */
    public float[] get(ByteBuffer src, int n) {
        float[] out = new float[n];
        int at = src.position();
        switch (type) {
            case FLOAT32 -> src.asFloatBuffer().get(out);
            case FLOAT16 -> {
                for (int i = 0; i < n; i++) out[i] = Half.toFloat(src.getShort(at + 2 * i));
            }
            case UINT16 -> {
                double s = scale();
                for (int i = 0; i < n; i++) out[i] = (float) (min + (src.getShort(at + 2 * i) & 0xffff) * s);
            }
        }
        return out;
    }

    /**
     * Lines for a TIFF ImageDescription: for the compact types the type and, for uint16, ImageJ's linear calibration
     * (function 0, value = c0 + c1 × count), so that Fiji shows the values, plus the same as tomospark keys; nothing
     * for float32, whose TIFF says all.
     */
    public String imageDescription() {
        if (type == OutputType.FLOAT32) return "";
        StringBuilder sb = new StringBuilder("tomospark.type=").append(type.id()).append('\n');
        if (type == OutputType.UINT16)
            sb.append("cf=0\nc0=").append(offset()).append("\nc1=").append(scale()).append('\n')
                    .append("tomospark.offset=").append(offset()).append('\n')
                    .append("tomospark.scale=").append(scale()).append('\n');
        return sb.toString();
    }

    /** The coding for the manifest and the report: the type and, for uint16, the range, offset and scale. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type.id());
        if (type == OutputType.UINT16) {
            m.put("min", min);
            m.put("max", max);
            m.put("offset", offset());
            m.put("scale", scale());
            m.put("value", "offset + count * scale");
            if (percentiles != null) m.put("fromPercentiles", List.of(percentiles[0], percentiles[1]));
        }
        return m;
    }
}
