package org.tomospark.executor.params;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The unit of the reconstructed values (config key {@code output.unit}): the linear attenuation coefficient per
 * <em>original</em> detector pixel ({@code 1/px}, the default), or per metre ({@code 1/m}) when the pixel size at
 * the sample is known.
 *
 * <p>Filtered back-projection of −log sinograms gives attenuation per sinogram pixel. Binning b detector columns
 * makes that pixel b times wider, so the same material would come out b times larger. The sinograms of a run are
 * therefore scaled by {@link #sinogramScale}: 1/b for {@code 1/px}, 1/(b·pixel size) for {@code 1/m}. Binned and
 * unbinned runs of one scan then agree (after averaging the unbinned slices down to the binned grid). Row and
 * projection binning average values of one unit and change nothing.
 *
 * @param kind       per pixel or per metre
 * @param pixelSizeM detector pixel size at the sample in metres (phase.pixelSize); needed for {@code metre}
 */
public record ValueUnit(Kind kind, double pixelSizeM) implements Serializable {

    public enum Kind {
        PIXEL("pixel", "1/px", "linear attenuation coefficient per original detector pixel"),
        METRE("metre", "1/m", "linear attenuation coefficient per metre");

        private final String id, symbol, meaning;

        Kind(String id, String symbol, String meaning) {
            this.id = id;
            this.symbol = symbol;
            this.meaning = meaning;
        }

        public String id() {
            return id;
        }

        public static Kind parse(String s) {
            String v = s.trim().toLowerCase(Locale.ROOT);
            for (Kind k : values()) if (k.id.equals(v) || k.symbol.equals(v)) return k;
            throw new IllegalArgumentException("unknown unit '" + s + "': expected pixel (1/px) or metre (1/m)");
        }
    }

    /** Attenuation per original detector pixel. */
    public static final ValueUnit PER_PIXEL = new ValueUnit(Kind.PIXEL, Double.NaN);

    public ValueUnit {
        if (kind == null) kind = Kind.PIXEL;
        if (kind == Kind.METRE && !(pixelSizeM > 0))
            throw new IllegalArgumentException("output.unit=metre needs the detector pixel size at the sample: set phase.pixelSize "
                    + "(--pixel-size)");
    }

    public static ValueUnit perMetre(double pixelSizeM) {
        return new ValueUnit(Kind.METRE, pixelSizeM);
    }

    /** "1/px" or "1/m". */
    public String symbol() {
        return kind.symbol;
    }

    /** The factor that turns −log sinograms binned by {@code binColumns} columns into sinograms whose reconstruction is in this unit. */
    public double sinogramScale(int binColumns) {
        return kind == Kind.PIXEL ? 1.0 / binColumns : 1.0 / (binColumns * pixelSizeM);
    }

    /** For report.json: symbol, meaning, and the slice's pixel (voxel) edge in original detector pixels (and metres). */
    public Map<String, Object> describe(int binColumns) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("symbol", kind.symbol);
        m.put("meaning", kind.meaning);
        m.put("voxelSizePx", binColumns);
        if (pixelSizeM > 0) m.put("voxelSizeM", binColumns * pixelSizeM);
        return m;
    }

    /**
     * The TIFF ImageDescription of every slice: ImageJ's key=value form, so that Fiji shows the value unit
     * ({@code vunit}), followed by tomospark's own keys (which ImageJ and tifffile keep as metadata).
     */
    public String imageDescription(int binColumns) {
        String voxel = "tomospark.voxelSizePx=" + binColumns + "\n"
                + (pixelSizeM > 0 ? "tomospark.voxelSizeM=" + binColumns * pixelSizeM + "\n" : "");
        return imageDescription(kind.symbol, kind.meaning, voxel);
    }

    /** The ImageDescription of slices in the unit {@code symbol} ({@code voxel}: the voxel-size lines, each ending in \n). */
    static String imageDescription(String symbol, String meaning, String voxel) {
        return "ImageJ=1.11a\nvunit=" + symbol + "\ntomospark.unit=" + symbol + "\ntomospark.quantity=" + meaning + "\n" + voxel;
    }
}
