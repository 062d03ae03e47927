package org.tomospark.executor.io;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.DatasetCreationOptions;
import io.jhdf.api.WritableGroup;

import java.nio.file.Path;

/** Writes a DataExchange HDF5 file (uint16 counts, flats, darks, theta in degrees) with jhdf. */
public final class DataExchangeWriter {
    private DataExchangeWriter() {
    }

    /**
     * @param data  [angle][row][col] counts
     * @param white [n][row][col]
     * @param dark  [n][row][col]
     * @param thetaDeg angles in degrees
     */
    public static void writeUint16(Path file, int[][][] data, int[][][] white, int[][][] dark, double[] thetaDeg, String sample) {
        DatasetCreationOptions u16 = DatasetCreationOptions.builder().unsigned().build();
        try (WritableHdfFile f = HdfFile.write(file)) {
            WritableGroup ex = f.putGroup("exchange");
            ex.putDataset("data", toShort(data), u16);
            ex.putDataset("data_white", toShort(white), u16);
            ex.putDataset("data_dark", toShort(dark), u16);
            ex.putDataset("theta", thetaDeg.clone());
            // jhdf 0.13 writes a corrupt file for attributes on nested groups (/measurement/sample), so the
            // sample name goes on the root group
            f.putAttribute("sample_name", sample);
        }
    }

    private static short[][][] toShort(int[][][] a) {
        short[][][] s = new short[a.length][][];
        for (int i = 0; i < a.length; i++) {
            s[i] = new short[a[i].length][];
            for (int j = 0; j < a[i].length; j++) {
                s[i][j] = new short[a[i][j].length];
                for (int k = 0; k < a[i][j].length; k++) {
                    int v = a[i][j][k];
                    if (v < 0 || v > 65535) throw new IllegalArgumentException("uint16 value out of range: " + v);
                    s[i][j][k] = (short) v;
                }
            }
        }
        return s;
    }
}
