package org.tomospark.executor.inputs;

import io.jhdf.filter.FilterManager;
import io.jhdf.filter.FilterPipeline;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.message.FilterPipelineMessage.FilterInfo;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The decoders of one chunked dataset's chunks, one per filter mask. Bit i of a chunk's mask set means filter i of
 * the dataset's pipeline was not applied to that chunk, so it is decoded by a pipeline of the other filters only, in
 * their order; a mask of every filter leaves the chunk as stored. The decoders come from jhdf's {@link FilterManager}
 * (its own filters and those registered through its ServiceLoader, this project's included) and are made once per
 * mask met. Safe to use from several threads.
 */
final class MaskedPipelines {
    /** jhdf's id of Fletcher-32, whose decoder leaves the 4-byte checksum after the samples. */
    static final int FLETCHER32 = 3;

    private final List<PipelineFilterWithData> filters;
    private final Map<Integer, FilterPipeline> byMask = new ConcurrentHashMap<>();

    /** @param filters the dataset's pipeline, in the order its filters were applied when writing */
    MaskedPipelines(List<PipelineFilterWithData> filters) {
        if (filters.size() > Integer.SIZE)
            throw new IllegalArgumentException(filters.size() + " filters; an HDF5 pipeline holds at most 32");
        this.filters = List.copyOf(filters);
    }

    /** The decoder of a chunk stored with {@code mask}. */
    FilterPipeline forMask(BitSet mask) {
        return byMask.computeIfAbsent(relevantBits(mask), this::pipeline);
    }

    /** Whether Fletcher-32 was applied to a chunk stored with {@code mask}, so its decoding ends with the checksum. */
    boolean checksummed(BitSet mask) {
        int bits = relevantBits(mask);
        for (int i = 0; i < filters.size(); i++)
            if (filters.get(i).getId() == FLETCHER32 && (bits & 1 << i) == 0) return true;
        return false;
    }

    /** The mask's bits of this pipeline's filters: HDF5 ignores the others. */
    private int relevantBits(BitSet mask) {
        long bits = mask.isEmpty() ? 0 : mask.toLongArray()[0];
        return (int) (filters.size() == Integer.SIZE ? bits : bits & ((1L << filters.size()) - 1));
    }

    private FilterPipeline pipeline(int skipped) {
        List<FilterInfo> applied = new ArrayList<>(filters.size());
        for (int i = 0; i < filters.size(); i++) {
            PipelineFilterWithData f = filters.get(i);
            // the optional flag only matters when writing
            if ((skipped & 1 << i) == 0) applied.add(new FilterInfo(f.getId(), f.getName(), false, f.getFilterData()));
        }
        return FilterManager.getPipeline(applied);
    }
}
