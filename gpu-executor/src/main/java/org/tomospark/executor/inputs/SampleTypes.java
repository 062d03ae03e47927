package org.tomospark.executor.inputs;

import io.jhdf.object.datatype.DataType;

/** The sample types a scan's frames may hold: 16-bit integers (taken as unsigned) and 32-bit floats. */
final class SampleTypes {
    private SampleTypes() {
    }

    /** @param what names the dataset in the message where its type is another */
    static ScanMetadata.SampleType of(DataType t, String what) {
        Class<?> java = t.getJavaType();
        int bytes = t.getSize();
        if ((java == int.class || java == short.class || java == char.class)
                && bytes == 2) return ScanMetadata.SampleType.UINT16;
        if (java == float.class) return ScanMetadata.SampleType.FLOAT32;
        throw new IllegalArgumentException(what + " has unsupported type " + java + " (" + bytes
                + " bytes); expected uint16 or float32");
    }
}
