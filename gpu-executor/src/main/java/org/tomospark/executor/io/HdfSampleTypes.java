package org.tomospark.executor.io;

import io.jhdf.api.Dataset;

/** The sample types the readers take from an HDF5 dataset: 16-bit integers (read unsigned) and 32-bit floats. */
final class HdfSampleTypes {
    private HdfSampleTypes() {
    }

    /** The dataset's sample type; any other is an error naming {@code file} and {@code path}. */
    static ScanMetadata.SampleType of(Dataset ds, String file, String path) {
        Class<?> t = ds.getJavaType();
        int bytes = ds.getDataType().getSize();
        if ((t == int.class || t == short.class || t == char.class)
                && bytes == 2) return ScanMetadata.SampleType.UINT16;
        if (t == float.class) return ScanMetadata.SampleType.FLOAT32;
        throw new IllegalArgumentException(file + ": " + path + " has unsupported type " + t + " (" + bytes
                + " bytes); expected uint16 or float32");
    }
}
