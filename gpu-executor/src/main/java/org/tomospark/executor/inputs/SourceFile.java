package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;

/**
 * An open HDF5 file that a virtual dataset reads from: jhdf for its metadata, positioned reads for its samples.
 *
 * @param name   names it in messages
 * @param hdf    the file as jhdf reads it
 * @param ranges positioned reads of the same file (closed with it)
 */
public record SourceFile(String name, HdfFile hdf, RangeReader ranges) implements Closeable {

    /** Opens a local file. */
    public static SourceFile open(Path file) {
        HdfFile hdf = DataExchangeSource.openHdf(() -> new HdfFile(file), file.toString());
        return new SourceFile(file.toString(), hdf,
                FileChannelRangeReader.over(hdf.getHdfBackingStorage().getFileChannel(), file.toString()));
    }

    /** Opens over a channel for jhdf's reads, with {@code ranges} for the samples; both are closed with this file. */
    public static SourceFile open(SeekableByteChannel channel, RangeReader ranges, String name) throws IOException {
        try {
            HdfFile hdf = DataExchangeSource.openHdf(() -> new HdfFile(channel, DataExchangeSource.uri(name)), name);
            return new SourceFile(name, hdf, ranges);
        } catch (RuntimeException e) {
            ranges.close();
            channel.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            ranges.close();
        } finally {
            hdf.close();
        }
    }
}
