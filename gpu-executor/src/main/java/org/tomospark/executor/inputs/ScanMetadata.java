package org.tomospark.executor.inputs;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What the driver reads of a scan before planning: shape, sample type, angles and the number of
 * flat and dark frames. {@code source} names the file in messages, {@code anglesSource} where the angles
 * come from (a dataset, or a file and the config key that names it), so that a message about missing
 * angles names the right thing.
 */
public record ScanMetadata(String source, int numProjections, int rows, int width, SampleType sampleType,
                           double[] anglesDeg, int numFlats, int numDarks, String anglesSource) implements Serializable {

    public enum SampleType { UINT16, FLOAT32 }

    /** Where a DataExchange file keeps its angles. */
    public static final String DATA_EXCHANGE_ANGLES = "/exchange/theta";

    /** A scan whose angles, if any, come from a DataExchange file's {@value #DATA_EXCHANGE_ANGLES}. */
    public ScanMetadata(String source, int numProjections, int rows, int width, SampleType sampleType,
                        double[] anglesDeg, int numFlats, int numDarks) {
        this(source, numProjections, rows, width, sampleType, anglesDeg, numFlats, numDarks, DATA_EXCHANGE_ANGLES);
    }

    public ScanMetadata {
        if (anglesSource == null || anglesSource.isBlank()) anglesSource = DATA_EXCHANGE_ANGLES;
        if (numProjections < 1 || rows < 1 || width < 2)
            throw new IllegalArgumentException(source + ": projection data must be [angles >= 1, rows >= 1, columns >= 2], got ["
                    + numProjections + ", " + rows + ", " + width + "]");
        if (anglesDeg != null && anglesDeg.length != numProjections)
            throw new IllegalArgumentException(source + ": " + anglesDeg.length + " angles but " + numProjections + " projections");
        anglesDeg = anglesDeg == null ? null : anglesDeg.clone();
    }

    @Override
    public double[] anglesDeg() {
        return anglesDeg == null ? null : anglesDeg.clone();
    }

    /** Bytes of one detector row across all projections. */
    public long bytesPerRow() {
        return (long) numProjections * width * (sampleType == SampleType.UINT16 ? 2 : 4);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScanMetadata m && m.source.equals(source) && m.numProjections == numProjections && m.rows == rows
                && m.width == width && m.sampleType == sampleType && Arrays.equals(m.anglesDeg, anglesDeg)
                && m.numFlats == numFlats && m.numDarks == numDarks && m.anglesSource.equals(anglesSource);
    }

    @Override
    public int hashCode() {
        return source.hashCode() * 31 + numProjections * 7 + rows * 3 + width;
    }

    @Override
    public String toString() {
        return source + " [" + numProjections + " angles, " + rows + " rows, " + width + " columns, " + sampleType
                + ", " + numFlats + " flats, " + numDarks + " darks]";
    }
}
