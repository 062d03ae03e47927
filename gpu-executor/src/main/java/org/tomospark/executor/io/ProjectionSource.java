package org.tomospark.executor.io;

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
