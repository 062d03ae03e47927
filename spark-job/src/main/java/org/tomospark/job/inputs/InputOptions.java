package org.tomospark.job.inputs;

import java.io.Serializable;
import java.util.Locale;

/**
 * How to read an input that is not self-describing (config keys {@code job.input.*}).
 *
 * @param format          auto (by name: .h5/.hdf5/.nxs HDF5, DataExchange or NXtomo by content, .raw/.bin raw, a
 *                        directory a TIFF stack), hdf5 (DataExchange), nxtomo, tiff, raw
 * @param tiffProjections glob of projection files inside the TIFF directory
 * @param tiffFlats       glob of flat files (empty for none)
 * @param tiffDarks       glob of dark files (empty for none)
 * @param tiffTheta       text file of angles in degrees, one per line (ignored if absent)
 * @param rawShape        {projections, rows, columns} of a raw file
 * @param rawDtype        uint16 or float32
 * @param rawBigEndian    byte order of a raw file
 * @param rawOffset       header bytes to skip in raw files
 * @param rawFlats        URI of a raw file of flat frames [n, rows, columns] (empty for none)
 * @param rawDarks        URI of a raw file of dark frames (empty for none)
 * @param rawTheta        URI of a text file of angles (empty: angles.start/angles.step)
 */
public record InputOptions(String format, String tiffProjections, String tiffFlats, String tiffDarks, String tiffTheta,
                           int[] rawShape, String rawDtype, boolean rawBigEndian, long rawOffset, String rawFlats,
                           String rawDarks, String rawTheta) implements Serializable {

    public InputOptions {
        format = format == null || format.isBlank() ? "auto" : format.trim().toLowerCase(Locale.ROOT);
        if (!format.matches("auto|hdf5|nxtomo|tiff|raw"))
            throw new IllegalArgumentException("config key job.input.format: expected auto, hdf5, nxtomo, tiff or raw, "
                    + "got '" + format + "'");
        tiffProjections = tiffProjections == null ? "proj_*.tif" : tiffProjections;
        tiffFlats = tiffFlats == null ? "flat_*.tif" : tiffFlats;
        tiffDarks = tiffDarks == null ? "dark_*.tif" : tiffDarks;
        tiffTheta = tiffTheta == null ? TiffStackSource.DEFAULT_THETA : tiffTheta;
        rawDtype = rawDtype == null ? "uint16" : rawDtype.trim().toLowerCase(Locale.ROOT);
        if (!rawDtype.matches("uint16|float32"))
            throw new IllegalArgumentException("config key job.input.raw.dtype: expected uint16 or float32, got '" + rawDtype + "'");
        if (rawShape != null && (rawShape.length != 3 || rawShape[0] < 1 || rawShape[1] < 1 || rawShape[2] < 2))
            throw new IllegalArgumentException("config key job.input.raw.shape: expected PROJECTIONS,ROWS,COLUMNS (positive)");
        if (rawOffset < 0) throw new IllegalArgumentException("config key job.input.raw.offset must be >= 0");
        rawShape = rawShape == null ? null : rawShape.clone();
        rawFlats = rawFlats == null ? "" : rawFlats;
        rawDarks = rawDarks == null ? "" : rawDarks;
        rawTheta = rawTheta == null ? "" : rawTheta;
    }

    public static InputOptions defaults() {
        return new InputOptions("auto", null, null, null, null, null, null, false, 0, null, null, null);
    }

    public static InputOptions tiff(String projections, String flats, String darks, String theta) {
        return new InputOptions("tiff", projections, flats, darks, theta, null, null, false, 0, null, null, null);
    }

    public static InputOptions raw(int projections, int rows, int columns, String dtype, boolean bigEndian, long offset,
                                   String flats, String darks, String theta) {
        return new InputOptions("raw", null, null, null, null, new int[]{projections, rows, columns}, dtype, bigEndian, offset,
                flats, darks, theta);
    }

    /** Parses PROJECTIONS,ROWS,COLUMNS (also accepted: x as separator). */
    public static int[] parseShape(String s) {
        String[] p = s.trim().split("\\s*[,x]\\s*");
        if (p.length != 3)
            throw new IllegalArgumentException("config key job.input.raw.shape: expected PROJECTIONS,ROWS,COLUMNS, got '" + s + "'");
        int[] r = new int[3];
        try {
            for (int i = 0; i < 3; i++) r[i] = Integer.parseInt(p[i]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("config key job.input.raw.shape: expected PROJECTIONS,ROWS,COLUMNS, got '" + s + "'");
        }
        return r;
    }

    @Override
    public int[] rawShape() {
        return rawShape == null ? null : rawShape.clone();
    }
}
