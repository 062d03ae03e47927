package org.tomospark.executor.backends.opencl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.util.Locale;

import static org.jocl.CL.CL_FLOAT;
import static org.jocl.CL.CL_HALF_FLOAT;
import static org.jocl.CL.CL_R;
import static org.jocl.CL.CL_RG;
import static org.jocl.CL.CL_RGBA;

/**
 * The FBP kernel a job runs on a device: the image (texture) kernel or the local-memory ALU kernel, slices per texel or
 * bin, half or float bins, the interpolation and the arithmetic of the detector coordinate. Chosen from the options and
 * what the device offers ({@link #resolve}); every refusal says what the device lacks and what to use instead.
 */
record ClPlan(String variant, Kind kind, int channels, boolean half, boolean linear, boolean coordDouble) {
    private static final Logger LOG = LoggerFactory.getLogger(ClPlan.class);

    enum Kind { IMAGE, ALU }

    String describe() {
        return variant + " (" + (kind == Kind.IMAGE ? "image2d " + channelOrderName(channels) + "/" + (half ? "HALF" : "FLOAT")
                : "local-memory ALU, " + channels + " slices/bin, " + (half ? "half" : "float") + " buffer")
                + ", " + (linear ? "linear" : "nearest") + ", " + (coordDouble ? "double" : "float") + " coordinates)";
    }

    /** Bytes of one bin of the sinogram the kernel reads (all its slices). */
    int bytesPerBin() {
        return channels * (half ? 2 : 4);
    }

    static int channelOrder(int k) {
        return k == 1 ? CL_R : k == 2 ? CL_RG : CL_RGBA;
    }

    static String channelOrderName(int k) {
        return k == 1 ? "CL_R" : k == 2 ? "CL_RG" : "CL_RGBA";
    }

    /** Picks the kernel variant for sinograms of {@code width} bins and {@code nproj} projections. */
    static ClPlan resolve(BackendOptions o, ClDeviceContext ctx, ClRuntime.DeviceInfo device, int width, int nproj) {
        String v = o.variant().trim().toLowerCase(Locale.ROOT);
        boolean linear = o.interpolation() == Interpolation.LINEAR;
        boolean wantHalf = o.format() == SampleFormat.HALF;
        boolean fp64 = ctx.hasExtension("cl_khr_fp64");
        String coords = o.get(OpenClKeys.COORDS);
        boolean coordDouble = switch (coords) {
            // double where it is cheap (CPU devices) or where it decides the bin (nearest); float on GPUs for linear
            case "auto" -> fp64 && (!linear || !device.isGpu());
            case "float" -> false;
            case "double" -> {
                if (!fp64) throw new OpenClException("opencl.coords=double needs cl_khr_fp64, which " + device + " lacks");
                yield true;
            }
            default -> throw new IllegalArgumentException("opencl.coords must be auto, float or double, got '" + coords + "'");
        };
        int spp = o.slicesPerPass() == 0 ? 4 : o.slicesPerPass(); // 0 = auto: 4 slices per texel/bin
        String img = o.get(OpenClKeys.IMAGES);
        boolean imagesUsable = ctx.imageSupport && img.equals("auto");
        boolean imagesFit = imagesUsable && width <= ctx.image2dMaxWidth && nproj <= ctx.image2dMaxHeight;
        Images images = new Images(ctx, device, imagesUsable, width, nproj);
        switch (v) {
            case "auto": {
                if (!device.isGpu() || !imagesFit) {
                    if (!imagesUsable) LOG.warn("opencl: {} has no image support; using the buffer-based alu kernel", device);
                    return new ClPlan("alu", Kind.ALU, Math.min(spp, 4), wantHalf, linear, coordDouble);
                }
                int k = spp >= 4 ? 4 : spp == 2 ? (ctx.supportsImageFormat(CL_RG, CL_FLOAT) ? 2 : 4) : 1;
                boolean half = wantHalf && k > 1 && ctx.supportsImageFormat(channelOrder(k), CL_HALF_FLOAT);
                if (wantHalf && k == 1) LOG.info("opencl std stores float32 bins; half storage is offered by tex4half and alu");
                else if (wantHalf && !half) LOG.warn("opencl: {} has no {}/HALF_FLOAT images; storing float", device, channelOrderName(k));
                return new ClPlan(k == 1 ? "std" : k == 2 ? "tex2" : half ? "tex4half" : "tex4", Kind.IMAGE, k, half, linear, coordDouble);
            }
            case "std":
                // Algorithm 1, the baseline, stores float32 bins (PoCL's CL_R/HALF_FLOAT images read back garbage)
                if (wantHalf) LOG.info("opencl std stores float32 bins; half storage is offered by tex4half and alu");
                return images.plan(v, 1, false, linear, coordDouble);
            case "tex2":
                return images.plan(v, 2, wantHalf, linear, coordDouble);
            case "tex4":
                return images.plan(v, 4, wantHalf, linear, coordDouble);
            case "tex4half":
                return images.plan(v, 4, true, linear, coordDouble);
            case "alu":
                return new ClPlan("alu", Kind.ALU, Math.min(spp, 4), wantHalf, linear, coordDouble);
            default:
                throw new IllegalArgumentException("opencl backend: unknown variant '" + o.variant()
                        + "': expected auto, std, tex2, tex4, tex4half or alu");
        }
    }

    /** What the device's images allow: an image variant where they hold the sinogram, a clear refusal where not. */
    private record Images(ClDeviceContext ctx, ClRuntime.DeviceInfo device, boolean usable, int width, int nproj) {
        ClPlan plan(String v, int k, boolean half, boolean linear, boolean coordDouble) {
            if (!usable)
                throw new OpenClException("opencl variant '" + v + "' needs image support, which " + device
                        + (ctx.imageSupport ? " has but opencl.images=off disables" : " lacks (CL_DEVICE_IMAGE_SUPPORT = false)")
                        + "; use variant alu (buffer kernel) or auto");
            int type = half ? CL_HALF_FLOAT : CL_FLOAT;
            if (!ctx.supportsImageFormat(channelOrder(k), type))
                throw new OpenClException("opencl variant '" + v + "' needs read-only 2D images of format " + channelOrderName(k) + "/"
                        + (half ? "CL_HALF_FLOAT" : "CL_FLOAT") + ", which " + device + " does not list"
                        + (k == 2 ? " (PoCL has no CL_RG); use tex4 or alu" : "; use alu"));
            if (width > ctx.image2dMaxWidth || nproj > ctx.image2dMaxHeight)
                throw new OpenClException("opencl variant '" + v + "': the sinogram image would be " + width + " x " + nproj
                        + " texels but " + device + " allows at most " + ctx.image2dMaxWidth + " x " + ctx.image2dMaxHeight
                        + " (CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT); use variant alu");
            return new ClPlan(v, Kind.IMAGE, k, half, linear, coordDouble);
        }
    }
}
