package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.config.ConfigKey;

import java.util.List;
import java.util.Locale;

/**
 * The settings of the OpenCL backend, as typed config keys: documented in conf/CONFIG.md, settable from the command line, Spark
 * and the notebook API like every key (its provider lists them, {@code keys()}), carried to the backend in
 * {@code BackendOptions.extra()} and read here with {@code BackendOptions.get}. Each key's default, validator and
 * documentation live here and nowhere else.
 */
public final class OpenClKeys {
    private static final String CATEGORY = "Backend: opencl";

    public static final ConfigKey<String> COORDS = ConfigKey.of(CATEGORY, "opencl.coords",
            "Arithmetic of the detector coordinate: auto (double on CPU devices and for nearest, float for linear on GPUs), "
                    + "float, double (needs cl_khr_fp64).", "auto", OpenClKeys::lower,
            v -> v.equals("auto") || v.equals("float") || v.equals("double"), "auto, float, double");
    public static final ConfigKey<String> FILTER = ConfigKey.of(CATEGORY, "opencl.filter",
            "Where the ramp filter runs: host, or device (an FFT kernel).", "host", OpenClKeys::lower,
            v -> v.equals("host") || v.equals("device"), "host, device");
    public static final ConfigKey<String> IMAGES = ConfigKey.of(CATEGORY, "opencl.images",
            "auto: image kernels where the device has images; off: the local-memory ALU kernel only.", "auto",
            OpenClKeys::lower, v -> v.equals("auto") || v.equals("off"), "auto, off");
    public static final ConfigKey<Integer> ALU_GROUP = ConfigKey.integer(CATEGORY, "opencl.alu.group",
            "Work-group edge of the ALU kernel (group x group work-items).", 16, 1, 64);
    public static final ConfigKey<Integer> ALU_PIX = ConfigKey.integer(CATEGORY, "opencl.alu.pix",
            "Pixels per work-item of the ALU kernel, along a row.", 2, 1, 16);
    public static final ConfigKey<Boolean> PROFILE = ConfigKey.bool(CATEGORY, "opencl.profile",
            "Profile the kernels (event timing, reported by the benchmarks).", false).internal();
    public static final ConfigKey<String> DEFINE = ConfigKey.string(CATEGORY, "opencl.define",
            "Extra -D options for the OpenCL build (kernel experiments and tests).", "").internal();

    /** Every key of this backend, in declaration order. */
    public static final List<ConfigKey<?>> ALL = List.of(COORDS, FILTER, IMAGES, ALU_GROUP, ALU_PIX, PROFILE, DEFINE);

    private OpenClKeys() {
    }

    private static String lower(String s) {
        return s.trim().toLowerCase(Locale.ROOT);
    }
}
