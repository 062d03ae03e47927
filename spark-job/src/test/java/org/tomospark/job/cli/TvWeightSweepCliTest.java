package org.tomospark.job.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.iterative.TotalVariation;
import org.tomospark.executor.phantom.DemoDataset;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TV weight sweep on the command line: a few slices at several weights, each image the very slice a tv run with
 * that weight writes, the weights in the report, a grid PNG; a larger weight gives a flatter image.
 */
class TvWeightSweepCliTest {
    @TempDir
    static Path tmp;

    @Test
    void aSweepWritesEachWeightsSlicesAndAGrid() throws Exception {
        Path scan = tmp.resolve("scan.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(48, 8, 60)).writeHdf5(scan);
        Path out = tmp.resolve("sweep");
        CliRun r = CliRun.of("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--backend", "java",
                "--center", "23.5", "--tv-weight-sweep", "0.25,1,4", "--iterations", "60");
        assertEquals(0, r.code(), r.err());
        JsonNode rep = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertEquals("tv weight sweep", rep.get("mode").asText());
        assertEquals(3, rep.get("rows").size(), "the quarter, middle and three-quarter rows");
        assertEquals(9, rep.get("images").size());
        int row = rep.get("rows").get(1).asInt();
        double[] weight = new double[3], tv = new double[3];
        float[] defaultImage = null;
        for (JsonNode im : rep.get("images")) {
            if (im.get("row").asInt() != row) continue;
            int i = switch (im.get("factor").asText()) {
                case "0.25" -> 0;
                case "1.0" -> 1;
                default -> 2;
            };
            weight[i] = im.get("tvWeight").asDouble();
            FloatTiff.Image img = FloatTiff.decode(Files.readAllBytes(out.resolve(im.get("file").asText())));
            tv[i] = TotalVariation.of(img.pixels(), img.height(), img.width(), 1)[0];
            if (i == 1) defaultImage = img.pixels();
        }
        assertEquals(weight[1] / 4, weight[0], 1e-12 * weight[1], "a factor scales the default weight");
        assertEquals(weight[1] * 4, weight[2], 1e-12 * weight[1]);
        assertTrue(weight[1] > 0, "the default weight is scaled to the data's noise: " + weight[1]);
        assertTrue(tv[0] > tv[1] && tv[1] > tv[2], "a larger weight flattens the image: TV " + tv[0] + ", " + tv[1] + ", " + tv[2]);

        // factor 1 is what a tv run without a weight writes for that row
        Path run = tmp.resolve("run");
        CliRun r2 = CliRun.of("reconstruct", "--input", scan.toString(), "--output", run.toString(), "--backend", "java",
                "--center", "23.5", "--algorithm", "tv", "--iterations", "60", "--slices", row + ":" + (row + 1));
        assertEquals(0, r2.code(), r2.err());
        float[] single = FloatTiff.decode(Files.readAllBytes(run.resolve(String.format("slice_%05d.tif", row)))).pixels();
        assertNotNull(defaultImage);
        assertArrayEquals(single, defaultImage, "the sweep's factor 1 and a run's slice, bit for bit");

        BufferedImage grid = ImageIO.read(out.resolve("tv-weight-sweep.png").toFile());
        assertNotNull(grid, "tv-weight-sweep.png");
        assertTrue(grid.getWidth() > 3 * 48 && grid.getHeight() > 3 * 48, grid.getWidth() + "x" + grid.getHeight());
        assertTrue(Files.isRegularFile(out.resolve("_SUCCESS")));
    }
}
