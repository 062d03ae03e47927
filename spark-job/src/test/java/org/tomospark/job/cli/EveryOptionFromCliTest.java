package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.ConfigRegistry;
import org.tomospark.executor.config.Settings;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every documented config key (every non-internal key of the registry, the rows of conf/CONFIG.md) can be set from
 * the command line: through its dedicated option where it has one, else through {@code --conf key=value}. Each key is
 * given a valid value other than its default, the invocation is parsed as {@code tomospark reconstruct ...} parses it,
 * and the resulting settings must hold that value.
 */
class EveryOptionFromCliTest {

    /** A key's value on the command line: the arguments that set it and the config value they stand for. */
    private record Setting(List<String> args, String value) {
    }

    private static final Map<String, Setting> CLI = new LinkedHashMap<>();

    private static void option(String key, String value, String... args) {
        CLI.put(key, new Setting(List.of(args), value));
    }

    private static void conf(String key, String value) {
        CLI.put(key, new Setting(List.of("--conf", key + "=" + value), value));
    }

    static {
        // keys with a dedicated option
        option("input", "/data/scan.h5", "--input", "/data/scan.h5");
        option("output", "/data/rec", "--output", "/data/rec");
        option("center", "47.5", "--center", "47.5");
        option("center.method", "correlation", "--center-method", "correlation");
        option("center.sweep", "40:50:0.5", "--center-sweep", "40:50:0.5");
        option("stripe.method", "fw", "--stripe", "fw");
        option("phase.energy", "20", "--phase-energy", "20");
        option("phase.distance", "0.5", "--phase-distance", "0.5");
        option("phase.pixelSize", "1e-6", "--pixel-size", "1e-6");
        option("phase.deltaOverBeta", "250", "--delta-beta", "250");
        option("halfAcquisition", "true", "--half-acquisition");
        option("bin.columns", "2", "--bin", "2");
        option("bin.rows", "3", "--bin", "1,3");
        option("bin.projections", "4", "--bin", "1,1,4");
        option("slice.roi", "1,2,30,40", "--roi", "1,2,30,40");
        option("filter", "hann", "--filter", "hann");
        option("backend", "java", "--backend", "java");
        option("algorithm", "mltr", "--algorithm", "mltr");
        option("iterative.iterations", "12", "--iterations", "12");
        option("iterative.subsets", "6", "--subsets", "6");
        option("iterative.tolerance", "0.01", "--tolerance", "0.01");
        option("iterative.stop", "change", "--stop", "change");
        option("iterative.tvWeight", "0.5", "--tv-weight", "0.5");
        option("iterative.start", "fbp", "--start", "fbp");
        option("iterative.tvWeightSweep", "0.5,1,2", "--tv-weight-sweep", "0.5,1,2");
        conf("iterative.relaxation", "0.8");
        conf("iterative.tvWeightScaled", "true");
        option("slices", "2:6", "--slices", "2:6");
        option("backend.interpolation", "nearest", "--interpolation", "nearest");
        option("backend.slicesPerPass", "4", "--slices-per-pass", "4");
        option("engine", "spark", "--engine", "spark");
        option("overwrite", "true", "--overwrite");
        option("resume", "true", "--resume");
        option("slice.grid", "skimage", "--slice-grid", "skimage");
        option("output.format", "zarr", "--output-format", "zarr");
        option("output.zarr.compression", "zstd", "--zarr-compression", "zstd");
        option("output.type", "uint16", "--output-type", "uint16");
        option("output.range", "-0.5,2", "--output-range", "-0.5,2");
        option("geometry", "cone", "--geometry", "cone");
        option("cone.prefiltered", "true", "--prefiltered");
        // every other key through --conf
        conf("cone.dso", "500");
        conf("cone.dsd", "900");
        conf("cone.du", "0.2");
        conf("cone.dv", "0.25");
        conf("cone.cu", "100.5");
        conf("cone.cv", "60.5");
        conf("cone.volume.size", "128");
        conf("cone.volume.slices", "96");
        conf("cone.volume.voxel", "0.1");
        conf("angles.start", "12.5");
        conf("angles.step", "0.25");
        conf("slice.size", "64");
        conf("filter.cutoff", "0.8");
        conf("filter.padding", "edge");
        conf("preprocess.denominatorFloor", "0.01");
        conf("preprocess.transmissionFloor", "1e-5");
        conf("preprocess.maxRepairFraction", "0.1");
        conf("backend.format", "half");
        conf("backend.threads", "3");
        conf("backend.device", "1");
        conf("backend.variant", "scalar");
        conf("group.rows", "16");
        conf("center.searchRadius", "5");
        conf("stripe.size", "15");
        conf("stripe.sigma", "2");
        conf("stripe.level", "4");
        conf("stripe.snr", "2.5");
        conf("stripe.largeSize", "41");
        conf("output.unit", "metre");
        conf("output.percentiles", "1,99");
        conf("cuda.chunkSlices", "16");
        conf("cuda.processorsPerDevice", "3");
        conf("cuda.memoryFraction", "0.5");
        conf("cuda.autotune", "false");
        conf("cuda.tuningCache", "/tmp/tuning.properties");
        conf("cuda.hostThreads", "4");
        conf("cuda.allowTextureWeights", "true");
        conf("cuda.correctOnDevice", "false");
        conf("opencl.coords", "float");
        conf("opencl.filter", "device");
        conf("opencl.images", "off");
        conf("opencl.alu.group", "8");
        conf("opencl.alu.pix", "4");
        conf("java.tile", "64");
        conf("java.projectionChunk", "256");
        conf("output.preview", "false");
        conf("job.output.raw", "true");
        conf("job.output.lockTimeout", "30");
        conf("demo.width", "96");
        conf("demo.rows", "8");
        conf("demo.projections", "90");
        conf("demo.noise", "false");
        conf("demo.range", "360");
        conf("demo.axisOffset", "2.5");
        conf("job.input.format", "tiff");
        conf("job.input.tiff.projections", "p_*.tif");
        conf("job.input.tiff.flats", "f_*.tif");
        conf("job.input.tiff.darks", "d_*.tif");
        conf("job.input.tiff.theta", "angles.txt");
        conf("job.input.raw.shape", "90,8,96");
        conf("job.input.raw.dtype", "float32");
        conf("job.input.raw.endian", "big");
        conf("job.input.raw.offset", "1024");
        conf("job.input.raw.flats", "flats.raw");
        conf("job.input.raw.darks", "darks.raw");
        conf("job.input.raw.theta", "theta.raw");
        conf("job.devices", "0,1");
        conf("job.tasksPerDevice", "1");
        conf("direct.groupsPerDevice", "3");
        conf("job.memoryFraction", "0.25");
        conf("job.gpuMemory", "1073741824");
        conf("job.progress", "false");
        conf("kerberos.principal", "tomo@FACILITY.ORG");
        conf("kerberos.keytab", "/etc/security/keytabs/tomo.keytab");
        // the batch's keys: reprocess has options for them (ReprocessOptionsTest), any command takes them by --conf
        conf("batch.inputs", "/data/a;/data/b/*.h5");
        conf("batch.outputRoot", "/rec");
        conf("batch.table", "/data/rotation_axis.json");
        conf("batch.extensions", "h5,tif");
        conf("batch.scansInFlight", "4");
        conf("batch.redoIfVersionBelow", "0.2.0");
    }

    /** The settings that {@code tomospark reconstruct ARGS} would run with. */
    private static Settings parse(List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of("reconstruct"));
        all.addAll(args);
        ParseResult parsed = new CommandLine(new TomoCli()).parseArgs(all.toArray(String[]::new));
        ReconstructCommand cmd = (ReconstructCommand) parsed.subcommand().commandSpec().userObject();
        return cmd.settings();
    }

    @Test
    void everyDocumentedKeyHasACommandLineSetting() {
        ConfigDocsCommand.registerAll();
        TreeSet<String> documented = new TreeSet<>();
        for (ConfigKey<?> k : ConfigRegistry.documented()) documented.add(k.name());
        assertEquals(documented, new TreeSet<>(CLI.keySet()),
                "the keys of conf/CONFIG.md and the keys this test sets from the command line differ");
    }

    @Test
    void eachKeyHoldsTheValueGivenOnTheCommandLine() throws Exception {
        ConfigDocsCommand.registerAll();
        for (ConfigKey<?> key : ConfigRegistry.documented()) {
            Setting given = CLI.get(key.name());
            assertTrue(given != null, key.name() + " has no command-line setting in this test");
            Object expected = key.parse(given.value());
            assertFalse(Objects.deepEquals(key.parse(key.defaultValue()), expected),
                    key.name() + ": the test value " + given.value() + " must differ from the default");
            Settings s = parse(given.args());
            assertTrue(s.isSet(key), key.name() + " not set by " + given.args());
            assertTrue(Objects.deepEquals(expected, s.get(key)),
                    key.name() + " from " + given.args() + ": expected " + expected + ", got " + s.get(key));
        }
    }

    @Test
    void allKeysTogetherInOneInvocation() throws Exception {
        ConfigDocsCommand.registerAll();
        List<String> args = new ArrayList<>();
        Map<String, String> bin = new LinkedHashMap<>();
        for (Map.Entry<String, Setting> e : CLI.entrySet()) {
            if (e.getKey().startsWith("bin.")) bin.put(e.getKey(), e.getValue().value());
            else args.addAll(e.getValue().args());
        }
        args.addAll(List.of("--bin", bin.get("bin.columns") + "," + bin.get("bin.rows") + "," + bin.get("bin.projections")));
        Settings s = parse(args);
        for (ConfigKey<?> key : ConfigRegistry.documented()) {
            Object expected = key.parse(CLI.get(key.name()).value());
            assertTrue(Objects.deepEquals(expected, s.get(key)), key.name() + ": expected " + expected + ", got " + s.get(key));
        }
    }
}
