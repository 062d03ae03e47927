package org.tomospark.executor.inputs;

import io.jhdf.ObjectHeader;
import io.jhdf.api.Dataset;
import io.jhdf.exceptions.HdfException;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.message.FilterPipelineMessage;
import org.tomospark.executor.inputs.filter.BloscFilter;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The errors for a chunked dataset whose filters cannot be decoded: they name the dataset, the filter and what to do.
 */
final class FilterErrors {
    private FilterErrors() {
    }

    /** A filter that no decoder is registered for (jhdf's message names it; the dataset's pipeline is listed too). */
    static IllegalArgumentException missing(Dataset ds, String file, String path, HdfException cause) {
        String pipeline;
        try {
            pipeline = ObjectHeader.readObjectHeader(ds.getHdfFile().getHdfBackingStorage(), ds.getAddress())
                    .getMessagesOfType(FilterPipelineMessage.class).stream()
                    .flatMap(m -> m.getFilters().stream())
                    .map(f -> "'" + f.getName() + "' (id " + f.getId() + ")")
                    .collect(Collectors.joining(", "));
        } catch (HdfException e) {
            cause.addSuppressed(e);
            pipeline = "unknown";
        }
        return new IllegalArgumentException(file + ": dataset " + path
                + " is compressed with an HDF5 filter that tomospark"
                + " cannot decode (" + cause.getMessage() + "; its filters: " + pipeline
                + "). tomospark decodes gzip, shuffle,"
                + " Fletcher-32, LZF, LZ4 (32004), bitshuffle (32008: LZ4, Zstd),"
                + " Blosc (32001: LZ4, Zstd, zlib) and Zstd (32015);"
                + " repack it with one of them, e.g. h5repack -f " + path + ":GZIP=4 in.h5 out.h5", cause);
    }

    /** Refuses a Blosc dataset whose parameters ask for a codec tomospark does not decode, before any chunk is read. */
    static void checkCodecs(List<PipelineFilterWithData> filters, String file, String path) {
        for (PipelineFilterWithData f : filters)
            if (f.getId() == BloscFilter.ID && !BloscFilter.readsRequestedCodec(f.getFilterData()))
                throw new IllegalArgumentException(file + ": dataset " + path
                        + " is compressed with the HDF5 filter 'blosc' (id "
                        + BloscFilter.ID + ") and its " + BloscFilter.requestedCodec(f.getFilterData())
                        + " codec, which has no"
                        + " maintained Java decoder, so tomospark does not read it; repack it with Blosc's LZ4 codec:"
                        + " " + BloscFilter.repackAdvice(path) + " (or with gzip: h5repack -f " + path
                        + ":GZIP=4 in.h5 out.h5)");
    }
}
