package org.tomospark.executor.inputs;

import io.jhdf.api.Dataset;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.exceptions.HdfException;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import org.tomospark.executor.inputs.filter.BitshuffleFilter;
import org.tomospark.executor.inputs.filter.BloscFilter;
import org.tomospark.executor.inputs.filter.ZstdFilter;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;

/**
 * Chooses how a 3-D HDF5 dataset's bands are read: contiguous storage by positioned reads, chunked storage by
 * parallel chunk decoding (on one thread where a filter's decoder may keep state), anything else (compact storage,
 * a dataset with no storage yet, samples that are not plain 16-bit integers or 32-bit floats) by the general
 * hyperslab reader. A filter that neither jhdf nor this project's filters ({@code inputs.filter}) decode is refused here,
 * when the file is opened, naming the dataset, the filter and how to repack the file.
 */
final class HdfBandReaders {
    /** Filters whose jhdf decoders keep no state between calls, so several chunks can be decoded at once. */
    private static final Set<Integer> STATELESS_FILTERS = Set.of(
            1,      // deflate (gzip)
            2,      // byte shuffle
            MaskedPipelines.FLETCHER32,
            32000,  // LZF
            32004,  // LZ4
            BitshuffleFilter.ID,
            BloscFilter.ID,
            ZstdFilter.ID);

    private HdfBandReaders() {
    }

    /**
     * @param file        names the file in errors
     * @param path        the dataset's path in the file
     * @param ranges      positioned reads of the file holding {@code ds}
     * @param baseAddress byte position of the file's HDF5 address 0 (after a user block)
     */
    static BandReader forDataset(Dataset ds, String file, String path, ScanMetadata.SampleType type, RangeReader ranges,
                                 long baseAddress, ReadOptions options) {
        ByteOrder order = plainOrder(ds.getDataType(), type);
        if (options.hyperslabOnly() || order == null) return new HyperslabBandReader(ds, file, path, type);
        int[] d = ds.getDimensions();
        if (ds instanceof ContiguousDataset c && !c.isEmpty())
            return new ContiguousBandReader(ranges, file + ":" + path, baseAddress + c.getDataAddress(), d[0], d[1], d[2], type, order,
                    options.effectiveThreads());
        if (ds instanceof ChunkedDataset c && c.getChunkDimensions().length == 3) {
            List<PipelineFilterWithData> filters;
            try {
                filters = c.getFilters();
            } catch (HdfException e) {
                throw FilterErrors.missing(c, file, path, e);
            }
            FilterErrors.checkCodecs(filters, file, path);
            int threads = filters.stream().allMatch(f -> STATELESS_FILTERS.contains(f.getId())) ? options.effectiveThreads() : 1;
            String where = file + ":" + path;
            return new ChunkedBandReader(new StoredChunks(c, where), where, type, order, threads);
        }
        return new HyperslabBandReader(ds, file, path, type);
    }

    /** The byte order of samples stored as whole 16-bit integers or 32-bit floats, or null for any other encoding. */
    static ByteOrder plainOrder(DataType t, ScanMetadata.SampleType type) {
        if (type == ScanMetadata.SampleType.UINT16 && t instanceof FixedPoint f && f.getSize() == 2
                && f.getBitOffset() == 0 && f.getBitPrecision() == 16)
            return f.getByteOrder();
        if (type == ScanMetadata.SampleType.FLOAT32 && t instanceof FloatingPoint f && f.getSize() == 4
                && f.getBitOffset() == 0 && f.getBitPrecision() == 32)
            return f.getByteOrder();
        return null;
    }
}
