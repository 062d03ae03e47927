package org.tomospark.executor.preview;

import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The convergence plot puts each residual where the logarithmic axis says, and refuses what it cannot plot. */
class ConvergencePlotTest {

    @Test
    void pointsLieOnTheLogarithmicAxis() throws Exception {
        double[] r = {0.5, 0.1, 0.02, 0.01};
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(ConvergencePlot.png(r, "sirt")));
        assertEquals(ConvergencePlot.WIDTH, img.getWidth());
        // decades 1e-2 (bottom) to 1e0 (top): 0.1 lies half-way, 0.01 on the bottom axis
        int xFirst = ConvergencePlot.LEFT, xLast = ConvergencePlot.RIGHT;
        int xSecond = ConvergencePlot.LEFT + Math.round((ConvergencePlot.RIGHT - ConvergencePlot.LEFT) / 3f);
        assertEquals(0, grey(img, xSecond, (ConvergencePlot.TOP + ConvergencePlot.BOTTOM) / 2), "0.1 at mid-height");
        assertEquals(0, grey(img, xLast, ConvergencePlot.BOTTOM), "0.01 on the axis");
        int yHalf = ConvergencePlot.y(Math.log10(0.5), -2, 0);
        assertEquals(0, grey(img, xFirst + 1, yHalf), "0.5 at log10(0.5)");
        assertEquals(255, grey(img, xSecond, yHalf), "nothing drawn above the second point");
    }

    private static int grey(BufferedImage img, int x, int y) {
        return img.getRaster().getSample(x, y, 0);
    }

    @Test
    void nothingToPlotIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ConvergencePlot.image(new double[0], "t"));
        assertThrows(IllegalArgumentException.class, () -> ConvergencePlot.image(new double[]{0, Double.NaN}, "t"));
    }
}
