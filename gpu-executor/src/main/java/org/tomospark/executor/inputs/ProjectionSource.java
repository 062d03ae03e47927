package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.RawStack;

/**
 * Random access to a scan by bands of detector rows. A task reads only its band (a hyperslab) of every
 * projection, never the whole file. Implementations: DataExchange HDF5 here; TIFF stacks and raw binary
 * in spark-job.
 */
public interface ProjectionSource extends AutoCloseable {
    ScanMetadata metadata();

    /** Projections, rows [rowStart, rowStart+rows): frames = numProjections. */
    RawStack readProjections(int rowStart, int rows);

    /** Flat fields of the band, or null if the scan has none. */
    RawStack readFlats(int rowStart, int rows);

    /** Dark fields of the band, or null if the scan has none. */
    RawStack readDarks(int rowStart, int rows);

    /**
     * Reads and averages the flats and darks of rows [rowStart, rowStart+rows). Either or both may be absent (flat = 1,
     * dark = 0): the band shape comes from the metadata, not from the frames. Darks without flats are refused, since the
     * correction (data - dark) / (flat - dark) needs the flats.
     */
    default FlatDark readFlatDark(int rowStart, int rows) {
        ScanMetadata meta = metadata();
        if (meta.numFlats() == 0 && meta.numDarks() > 0)
            throw new IllegalArgumentException(flatName() + ": the scan has no flat fields but " + meta.numDarks()
                    + " dark fields; flat-field correction (data - dark) / (flat - dark) needs the flats");
        return FlatDark.average(rowStart, rows, meta.width(), readFlats(rowStart, rows), readDarks(rowStart, rows),
                flatName(), darkName());
    }

    /** Names used in error messages for the projection, flat and dark data. */
    default String dataName() {
        return metadata().source();
    }

    default String flatName() {
        return metadata().source() + " (flats)";
    }

    default String darkName() {
        return metadata().source() + " (darks)";
    }

    /** Names where the angles come from, in messages. */
    default String anglesName() {
        return metadata().source() + " (angles)";
    }

    @Override
    void close();
}
