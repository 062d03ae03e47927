package org.tomospark.job.cli;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/** Draws one string with AWT's own text rendering: exits 0 only where AWT fonts work. */
public final class AwtTextProbe {
    private AwtTextProbe() {
    }

    public static void main(String[] args) {
        BufferedImage img = new BufferedImage(64, 16, BufferedImage.TYPE_BYTE_GRAY);
        Graphics2D g = img.createGraphics();
        g.drawString("c=295.85", 2, 12);
        g.dispose();
        System.out.println("AWT text drawn");
    }
}
