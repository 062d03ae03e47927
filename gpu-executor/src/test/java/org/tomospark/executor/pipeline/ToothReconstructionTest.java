package org.tomospark.executor.pipeline;

import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.params.ReconstructionParams;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.preview.PngPreview;
import org.tomospark.executor.inputs.ToothScan;

import java.nio.file.Files;
import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real TomoPy tooth scan (181 angles, 640 columns, axis 296.0 px) reconstructs to a tooth cross-section:
 * bright enamel, grey dentine, dark pulp and background, rather than noise.
 */
class ToothReconstructionTest {
    static double mean(float[] img, int w, int r0, int c0, int size) {
        double s = 0;
        for (int r = r0; r < r0 + size; r++) for (int c = c0; c < c0 + size; c++) s += img[r * w + c];
        return s / (size * size);
    }

    static double std(float[] img, int w, int r0, int c0, int size) {
        double m = mean(img, w, r0, c0, size), s = 0;
        for (int r = r0; r < r0 + size; r++) for (int c = c0; c < c0 + size; c++) s += (img[r * w + c] - m) * (img[r * w + c] - m);
        return Math.sqrt(s / (size * size));
    }

    @Test
    void toothIsRecognisable() throws Exception {
        ReconstructionParams p = ReconstructionParams.builder().backend("java").center(296.0).rows(0, 1).build();
        float[][] out = new float[1][];
        try (DataExchangeSource src = DataExchangeSource.open(ToothScan.path())) {
            VolumeReconstructor.run(src, p, (row, px, w, h) -> out[row] = px.toArray(), null, null);
        }
        int w = 640;
        float[] img = out[0];
        Path dir = Files.createDirectories(Path.of("target", "previews"));
        Files.write(dir.resolve("tooth.png"), PngPreview.encode(img, w, w));
        double enamel = mean(img, w, 300, 415, 12);
        double dentine = mean(img, w, 290, 365, 12);
        double pulp = mean(img, w, 330, 290, 8);
        double bg = mean(img, w, 100, 300, 40);
        double bgStd = std(img, w, 100, 300, 40);
        System.out.printf("enamel %.5f dentine %.5f pulp %.5f background %.5f +- %.5f%n", enamel, dentine, pulp, bg, bgStd);
        assertTrue(enamel > dentine + 2 * bgStd, "enamel brighter than dentine");
        assertTrue(dentine > bg + 10 * bgStd, "dentine well above the background noise");
        assertTrue(pulp < dentine - 5 * bgStd, "pulp darker than dentine");
        assertEquals(0, bg, 3 * bgStd, "background is empty (about zero)");
    }
}
