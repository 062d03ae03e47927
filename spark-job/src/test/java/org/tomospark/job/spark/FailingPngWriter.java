package org.tomospark.job.spark;

import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriter;
import javax.imageio.spi.IIORegistry;
import javax.imageio.spi.ImageWriterSpi;
import javax.imageio.stream.ImageOutputStream;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/**
 * A PNG writer that cannot be made, placed before the JDK's own in this JVM's ImageIO registry while installed: every
 * PNG encoding fails with the error a JVM without font libraries gives, so a picture step fails as it does on a
 * node without them. TIFF and every other format are untouched.
 */
final class FailingPngWriter extends ImageWriterSpi implements AutoCloseable {
    static final String MESSAGE = "/usr/lib/jvm/java-17/lib/libfontmanager.so: libharfbuzz.so.0: cannot open shared object file";

    private FailingPngWriter() {
        vendorName = "tomospark tests";
        version = "1";
        names = new String[]{"png"};
        suffixes = new String[]{"png"};
        MIMETypes = new String[]{"image/png"};
        outputTypes = new Class<?>[]{ImageOutputStream.class};
        pluginClassName = ImageWriter.class.getName();
    }

    /** Installs the failing writer ahead of every other PNG writer; {@link #close} removes it. */
    static FailingPngWriter install() {
        FailingPngWriter w = new FailingPngWriter();
        IIORegistry reg = IIORegistry.getDefaultInstance();
        reg.registerServiceProvider(w, ImageWriterSpi.class);
        int png = 0;
        for (Iterator<ImageWriterSpi> it = reg.getServiceProviders(ImageWriterSpi.class, false); it.hasNext(); ) {
            ImageWriterSpi other = it.next();
            if (other != w && Arrays.asList(other.getFormatNames()).contains("png")) {
                reg.setOrdering(ImageWriterSpi.class, w, other);
                png++;
            }
        }
        if (png == 0) throw new IllegalStateException("no PNG writer to put the failing one before");
        return w;
    }

    @Override
    public void close() {
        IIORegistry.getDefaultInstance().deregisterServiceProvider(this, ImageWriterSpi.class);
    }

    @Override
    public boolean canEncodeImage(ImageTypeSpecifier type) {
        return true;
    }

    @Override
    public ImageWriter createWriterInstance(Object extension) {
        throw new UnsatisfiedLinkError(MESSAGE);
    }

    @Override
    public String getDescription(Locale locale) {
        return "PNG writer that fails as a JVM without font libraries does";
    }
}
