package org.tomospark.executor.backends.cuda;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * The kernels this jar carries: the fatbins the Maven profile "cuda-kernels" packages ({@code /kernels-fatbin/},
 * SASS for sm_80 and sm_90, the product kernels or with "cuda-explore" every variant), else the committed PTX of the
 * product kernels ({@code /kernels-ptx/}, gzipped, JIT-compiled by the driver). Each folder holds its modules and the variant
 * manifest that says which rows of kernels/variants.def they contain. Read once per JVM, on first use.
 */
final class KernelBuild {
    private static final String FATBIN_DIR = "/kernels-fatbin/", PTX_DIR = "/kernels-ptx/";
    private static final String MANIFEST = "variants.manifest";
    /** One hash of the kernel sources the modules of a folder were built from. */
    private static final String SOURCES = "sources.sha256";
    private static final Logger LOG = LoggerFactory.getLogger(KernelBuild.class);

    private final boolean fatbin;
    private final KernelManifest manifest;
    private final KernelCatalog catalog;
    private final String version;
    /** Modules read (and the PTX inflated) once per JVM: the version hash and the first load share the back-projection's. */
    private final Map<String, byte[]> modules = new ConcurrentHashMap<>();

    private KernelBuild(boolean fatbin) {
        this.fatbin = fatbin;
        byte[] text = require(dir() + MANIFEST);
        this.manifest = KernelManifest.parse(new String(text, StandardCharsets.UTF_8));
        this.catalog = KernelCatalog.compiled(manifest);
        this.version = hash(text, module("backproject"));
    }

    /** The build on the classpath. */
    static KernelBuild packaged() {
        return Holder.BUILD;
    }

    private static final class Holder {
        static final KernelBuild BUILD = new KernelBuild(fatbinsCurrent(resource(FATBIN_DIR + MANIFEST) != null,
                resource(FATBIN_DIR + SOURCES), resource(PTX_DIR + SOURCES)));
    }

    /**
     * Whether to load the fatbins: they are on the classpath and were built from the same kernel sources as the
     * committed PTX (one hash of every source file beside each, written by kernels/build-ptx.sh). Fatbins of other
     * sources are what an earlier build left in the classes folder (a later build without nvcc keeps them): the PTX,
     * which CI keeps current, is loaded instead, with a warning.
     */
    static boolean fatbinsCurrent(boolean present, byte[] fatbinSources, byte[] ptxSources) {
        if (!present) return false;
        if (fatbinSources != null && ptxSources != null && Arrays.equals(fatbinSources, ptxSources)) return true;
        LOG.warn("cuda: the packaged fatbins were built from other kernel sources than the packaged PTX (a stale "
                + FATBIN_DIR + " from an earlier build?): loading the PTX; rebuild with mvn clean or the cuda-kernels profile");
        return false;
    }

    private static byte[] resource(String path) {
        try (InputStream in = KernelBuild.class.getResourceAsStream(path)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cuda: cannot read resource " + path + ": " + e.getMessage(), e);
        }
    }

    private String dir() {
        return fatbin ? FATBIN_DIR : PTX_DIR;
    }


    KernelManifest manifest() {
        return manifest;
    }

    KernelCatalog catalog() {
        return catalog;
    }

    /** Whether the modules are fatbins (loaded as they are) rather than PTX (compiled by the driver when loaded). */
    boolean fatbin() {
        return fatbin;
    }

    /** How the modules are loaded, for logs and the device description. */
    String source() {
        return fatbin ? "fatbin" : "ptx (driver JIT)";
    }

    /**
     * Short hash of the manifest and the back-projection module: auto-tuning caches its choices per device and
     * kernel build, so a kernel change or another set of variants tunes again.
     */
    String version() {
        return version;
    }

    /** The bytes of module {@code name} (backproject, filter, preprocess): a fatbin as packaged, or the PTX inflated. */
    byte[] module(String name) {
        return modules.computeIfAbsent(name, n -> fatbin ? require(FATBIN_DIR + n + ".fatbin")
                : inflate(PTX_DIR + n + ".ptx.gz", require(PTX_DIR + n + ".ptx.gz")));
    }

    /** The PTX is committed and packaged gzipped (kernels/build-ptx.sh): a tenth of its size in the repository and the jar. */
    static byte[] inflate(String path, byte[] gz) {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cuda: " + path + " is not a readable gzip file: " + e.getMessage(), e);
        }
    }

    private static byte[] require(String path) {
        try (InputStream in = KernelBuild.class.getResourceAsStream(path)) {
            if (in == null)
                throw new IllegalStateException("cuda: " + path + " is not on the classpath (build gpu-executor with the "
                        + "output of kernels/build-ptx.sh)");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cuda: cannot read resource " + path + ": " + e.getMessage(), e);
        }
    }

    private static String hash(byte[] manifest, byte[] module) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(manifest);
            d.update(module);
            return HexFormat.of().formatHex(d.digest(), 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
