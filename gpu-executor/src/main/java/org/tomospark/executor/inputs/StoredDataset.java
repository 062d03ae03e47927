package org.tomospark.executor.inputs;

import io.jhdf.api.Dataset;
import io.jhdf.object.datatype.DataType;

/**
 * A dataset found in an HDF5 file: one that jhdf reads ({@code plain}), or one with the virtual layout, which this
 * project reads itself ({@code virtual}). Exactly one of the two is set.
 *
 * @param path the dataset's path, for messages
 */
record StoredDataset(String path, Dataset plain, VirtualDataset virtual) {
    StoredDataset {
        if ((plain == null) == (virtual == null))
            throw new IllegalArgumentException("exactly one of plain and virtual");
    }

    int[] dims() {
        return plain != null ? plain.getDimensions() : virtual.dims();
    }

    DataType dataType() {
        return plain != null ? plain.getDataType() : virtual.type();
    }
}
