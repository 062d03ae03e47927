package org.tomospark.job.inputs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ReadOptions;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Locale;

/**
 * Opens any supported input through the Hadoop FileSystem API: DataExchange HDF5 ({@link Inputs#openHdf5}), NXtomo
 * ({@link Inputs#openNxTomo}),
 * a TIFF stack directory or a raw binary file, chosen by {@code job.input.format} or, with {@code auto}, by
 * the name (a directory is a TIFF stack).
 */
public final class ProjectionInputs {
    private ProjectionInputs() {
    }

    public static String resolveFormat(String uri, InputOptions o, Configuration conf) {
        if (!o.format().equals("auto")) return o.format();
        String lower = uri.toLowerCase(Locale.ROOT);
        if (lower.matches("(?s).*\\.(h5|hdf5|hdf|nxs|nx|dxf)$")) return Inputs.isNxTomo(uri, conf) ? "nxtomo" : "hdf5";
        if (lower.matches("(?s).*\\.(raw|bin|dat)$")) return "raw";
        Path p = Inputs.path(uri);
        try {
            FileStatus st = p.getFileSystem(conf).getFileStatus(p);
            if (st.isDirectory()) return "tiff";
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(uri + ": input not found", e);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(uri + ": cannot read input (" + e.getMessage() + ")", e);
        }
        throw new IllegalArgumentException(uri + ": unknown input format; expected a DataExchange or NXtomo HDF5 file "
                + "(.h5, .nxs), a TIFF stack directory or a raw file (.raw), or set job.input.format");
    }

    /** Opens on the driver: checks everything that can be checked from headers. */
    public static ProjectionSource open(String uri, InputOptions o, Configuration conf) {
        return open(uri, o, conf, ReadThreads.options());
    }

    /** Opens on the driver, reading bands as {@code read} says. */
    public static ProjectionSource open(String uri, InputOptions o, Configuration conf, ReadOptions read) {
        return switch (resolveFormat(uri, o, conf)) {
            case "hdf5" -> Inputs.openHdf5(uri, conf, read);
            case "nxtomo" -> Inputs.openNxTomo(uri, conf, read);
            case "tiff" -> TiffStackSource.open(uri, o, conf);
            case "raw" -> RawBinarySource.open(uri, o, conf, read);
            default -> throw new IllegalStateException();
        };
    }

    /** Opens on an executor, for a format the driver already resolved. */
    public static ProjectionSource reopen(String uri, String format, InputOptions o, Configuration conf) {
        return reopen(uri, format, o, conf, ReadThreads.options());
    }

    /** Opens on an executor, reading bands as {@code read} says. */
    public static ProjectionSource reopen(String uri, String format, InputOptions o, Configuration conf, ReadOptions read) {
        return switch (format) {
            case "hdf5" -> Inputs.openHdf5(uri, conf, read);
            case "nxtomo" -> Inputs.openNxTomo(uri, conf, read);
            case "tiff" -> TiffStackSource.reopen(uri, o, conf);
            case "raw" -> RawBinarySource.open(uri, o, conf, read);
            default -> throw new IllegalArgumentException("unknown input format " + format);
        };
    }
}
