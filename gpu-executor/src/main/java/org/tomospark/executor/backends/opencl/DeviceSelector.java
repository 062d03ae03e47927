package org.tomospark.executor.backends.opencl;

import java.util.Locale;

/**
 * Parsed OpenCL device selector ({@code BackendOptions.device}). Syntax, case-insensitive, parts
 * separated by commas:
 * <ul>
 *   <li>{@code ""} or {@code auto}: the first GPU of any platform, else the first device of any type;</li>
 *   <li>{@code N} (digits only, a Spark GPU address): GPU number N, counting GPUs over all platforms in
 *       platform order;</li>
 *   <li>{@code gpu:N}, {@code cpu:N}, {@code accelerator:N}, {@code any:N}: the N-th device of that type
 *       (the index may be left out: {@code gpu} = {@code gpu:0});</li>
 *   <li>{@code platform=TEXT}: only platforms whose name or vendor contains TEXT, combined with one of the
 *       above, e.g. {@code platform=NVIDIA,gpu:1} or {@code platform=portable,cpu:0}. Alone it means the
 *       first GPU of that platform, else its first device.</li>
 * </ul>
 */
public record DeviceSelector(String platformFilter, Kind kind, int index) {

    /** Device type to pick. DEFAULT = GPU if there is one, else any. */
    public enum Kind { DEFAULT, GPU, CPU, ACCELERATOR, ANY }

    public static DeviceSelector parse(String text) {
        String s = text == null ? "" : text.trim();
        String platform = null;
        Kind kind = Kind.DEFAULT;
        int index = 0;
        if (s.isEmpty() || s.equalsIgnoreCase("auto")) return new DeviceSelector(null, Kind.DEFAULT, 0);
        for (String part : s.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) continue;
            String low = p.toLowerCase(Locale.ROOT);
            if (low.startsWith("platform=")) {
                platform = p.substring("platform=".length()).trim();
                if (platform.isEmpty()) throw bad(text, "platform= needs a name");
            } else if (low.chars().allMatch(Character::isDigit)) {
                kind = Kind.GPU;
                index = Integer.parseInt(low);
            } else {
                String type = low;
                int colon = low.indexOf(':');
                if (colon >= 0) {
                    type = low.substring(0, colon).trim();
                    String n = low.substring(colon + 1).trim();
                    if (n.isEmpty() || !n.chars().allMatch(Character::isDigit))
                        throw bad(text, "the index after '" + type + ":' must be a non-negative integer");
                    index = Integer.parseInt(n);
                }
                kind = switch (type) {
                    case "gpu" -> Kind.GPU;
                    case "cpu" -> Kind.CPU;
                    case "accelerator", "acc" -> Kind.ACCELERATOR;
                    case "any", "all" -> Kind.ANY;
                    default -> throw bad(text, "unknown device type '" + type + "'");
                };
            }
        }
        return new DeviceSelector(platform, kind, index);
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException("opencl device selector '" + text + "': " + why
                + " (expected e.g. \"\", \"0\", \"gpu:1\", \"cpu:0\", \"platform=NVIDIA,gpu:0\")");
    }

    boolean platformMatches(String name, String vendor) {
        if (platformFilter == null) return true;
        String f = platformFilter.toLowerCase(Locale.ROOT);
        return name.toLowerCase(Locale.ROOT).contains(f) || vendor.toLowerCase(Locale.ROOT).contains(f);
    }

    @Override
    public String toString() {
        return (platformFilter == null ? "" : "platform=" + platformFilter + ",") + kind.name().toLowerCase(Locale.ROOT) + ":" + index;
    }
}
