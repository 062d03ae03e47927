package org.tomospark.job;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.inputs.TiffStackSource;

import java.util.Locale;

/** Config keys of the inputs that are not DataExchange HDF5 (TIFF stacks, raw binary), read the same way by both engines. */
public final class InputKeys {
    private InputKeys() {
    }

    private static final String IN = "Input formats";

    static {
        JobKeys.INPUT.name(); // the core's and the job's keys are registered before these
    }

    public static final ConfigKey<String> INPUT_FORMAT = ConfigKey.of(IN, "job.input.format",
            "Input format: auto (by name: .h5/.hdf5/.nxs HDF5, read as DataExchange if it has /exchange/data, else as "
                    + "NXtomo if it has an NXentry with detector data and image_key; .raw/.bin raw binary; a directory "
                    + "is a TIFF stack), hdf5 (DataExchange), nxtomo (NeXus: projections, flats and darks in one "
                    + "detector dataset told apart by image_key 0/1/2, 3 left out; rotation_angle per frame), "
                    + "tiff, raw.",
            "auto", s -> s.trim().toLowerCase(Locale.ROOT), s -> s.matches("auto|hdf5|nxtomo|tiff|raw"),
            "auto, hdf5, nxtomo, tiff, raw");
    public static final ConfigKey<String> TIFF_PROJECTIONS = ConfigKey.string(IN, "job.input.tiff.projections",
            "TIFF stack: glob of the projection files in the input directory, one projection per file, ordered by name.",
            "proj_*.tif");
    public static final ConfigKey<String> TIFF_FLATS = ConfigKey.string(IN, "job.input.tiff.flats",
            "TIFF stack: glob of the flat-field files (empty for none).", "flat_*.tif");
    public static final ConfigKey<String> TIFF_DARKS = ConfigKey.string(IN, "job.input.tiff.darks",
            "TIFF stack: glob of the dark-field files (empty for none).", "dark_*.tif");
    public static final ConfigKey<String> TIFF_THETA = ConfigKey.string(IN, "job.input.tiff.theta",
            "TIFF stack: text file of angles in degrees, one per line; if absent, give angles.start and angles.step.",
            TiffStackSource.DEFAULT_THETA);
    public static final ConfigKey<int[]> RAW_SHAPE = ConfigKey.of(IN, "job.input.raw.shape",
            "Raw binary: PROJECTIONS,ROWS,COLUMNS of the [projection][row][column] data.", "",
            s -> s.isBlank() ? null : InputOptions.parseShape(s), v -> true, "empty or PROJECTIONS,ROWS,COLUMNS");
    public static final ConfigKey<String> RAW_DTYPE = ConfigKey.of(IN, "job.input.raw.dtype",
            "Raw binary: sample type.", "uint16", s -> s.trim().toLowerCase(Locale.ROOT), s -> s.matches("uint16|float32"),
            "uint16, float32");
    public static final ConfigKey<String> RAW_ENDIAN = ConfigKey.of(IN, "job.input.raw.endian",
            "Raw binary: byte order.", "little", s -> s.trim().toLowerCase(Locale.ROOT), s -> s.matches("little|big"),
            "little, big");
    public static final ConfigKey<Integer> RAW_OFFSET = ConfigKey.integer(IN, "job.input.raw.offset",
            "Raw binary: header bytes to skip at the start of each raw file.", 0, 0, Integer.MAX_VALUE);
    public static final ConfigKey<String> RAW_FLATS = ConfigKey.string(IN, "job.input.raw.flats",
            "Raw binary: URI of the flat frames [n][row][column], same type and header (empty for none).", "");
    public static final ConfigKey<String> RAW_DARKS = ConfigKey.string(IN, "job.input.raw.darks",
            "Raw binary: URI of the dark frames (empty for none).", "");
    public static final ConfigKey<String> RAW_THETA = ConfigKey.string(IN, "job.input.raw.theta",
            "Raw binary: URI of a text file of angles in degrees (empty: angles.start and angles.step).", "");

    /** How to read the input, from its keys. */
    public static InputOptions inputOptions(Settings s) {
        return new InputOptions(s.get(INPUT_FORMAT), s.get(TIFF_PROJECTIONS), s.get(TIFF_FLATS), s.get(TIFF_DARKS),
                s.get(TIFF_THETA), s.get(RAW_SHAPE), s.get(RAW_DTYPE), s.get(RAW_ENDIAN).equals("big"), s.get(RAW_OFFSET),
                s.get(RAW_FLATS), s.get(RAW_DARKS), s.get(RAW_THETA));
    }
}
