package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.tomospark.executor.testing.GeneratedBuild;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The OpenCL programs' build options and kernel names come from one table, kernels/opencl.def, through the generated
 * {@link ClPrograms}: every program of kernels/ is in it and builds with the options it lists, every kernel it lists
 * exists; the sources define no defaults, so an option missing or renamed in a source stops that program's build with
 * the option's name; and an option renamed in the table fails the Java build at the code still setting the old name.
 */
class ClProgramsTest {
    /** A value for every int option of the table that builds on any device. */
    private static final Map<String, Integer> INTS = Map.of("CHANNELS", 2, "GROUP", 8, "PIX", 2, "PCHUNK", 4, "NFFT", 64,
            "LOG2N", 6, "ZB", 4, "K", 2);

    /** Every program builder of ClPrograms, from its factory methods. */
    private static List<ClProgramBuilder<?>> builders() throws ReflectiveOperationException {
        List<ClProgramBuilder<?>> l = new ArrayList<>();
        for (Method m : ClPrograms.class.getDeclaredMethods())
            if (Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0
                    && ClProgramBuilder.class.isAssignableFrom(m.getReturnType())) l.add((ClProgramBuilder<?>) m.invoke(null));
        return l;
    }

    /** The builder with every option set: ints from {@link #INTS}, flags to {@code flags}. */
    private static ClProgramSpec complete(ClProgramBuilder<?> b, boolean flags) throws ReflectiveOperationException {
        for (Method m : b.getClass().getDeclaredMethods()) {
            if (m.getParameterCount() != 1 || m.getReturnType() != b.getClass()) continue;
            m.setAccessible(true);
            if (m.getParameterTypes()[0] == boolean.class) m.invoke(b, flags);
            else {
                Integer v = INTS.get(optionName(m.getName()));
                assertNotNull(v, "no test value for " + b.getClass().getSimpleName() + "." + m.getName() + ": add it to INTS");
                m.invoke(b, v);
            }
        }
        return b.build();
    }

    /** coordDouble to COORD_DOUBLE, log2n to LOG2N. */
    private static String optionName(String setter) {
        return setter.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase();
    }

    private static List<String> kernels(ClProgramBuilder<?> b) throws IllegalAccessException {
        List<String> l = new ArrayList<>();
        for (Field f : b.getClass().getDeclaredFields())
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) l.add((String) f.get(null));
        return l;
    }

    @Test
    void everyOpenClSourceOfKernelsIsInTheTable() throws Exception {
        Set<String> sources;
        try (Stream<Path> s = Files.list(GeneratedBuild.moduleDir().resolve("../kernels"))) {
            sources = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cl")).collect(Collectors.toCollection(TreeSet::new));
        }
        Set<String> table = new TreeSet<>();
        for (ClProgramBuilder<?> b : builders()) table.add(complete(b, false).file());
        assertEquals(sources, table);
    }

    @Test
    void everyOptionIsPassedInTheTablesOrder() {
        ClProgramSpec s = ClPrograms.bpAlu().pchunk(16).pix(2).group(16).halfStorage(true).coordDouble(false).channels(4).linear(true)
                .build();
        assertEquals("bp_alu.cl", s.file());
        assertEquals("-cl-mad-enable -DLINEAR=1 -DCHANNELS=4 -DCOORD_DOUBLE=0 -DHALF_STORAGE=1 -DGROUP=16 -DPIX=2 -DPCHUNK=16",
                s.options());
        assertEquals("-DZB=8 -DUSE_DOUBLE=1", ClPrograms.fdk().useDouble(true).zb(8).build().options());
        assertEquals(s.options() + " -DBROKEN=1", s.withExtra(" -DBROKEN=1 ").options());
    }

    @Test
    void aProgramMissingAnOptionIsRefusedNamingIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ClPrograms.joseph().k(2).build());
        assertTrue(e.getMessage().contains("joseph.cl") && e.getMessage().contains("[USE_DOUBLE]"), e.getMessage());
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> ClPrograms.fdk().zb(2).zb(4));
        assertTrue(twice.getMessage().contains("ZB set twice"), twice.getMessage());
    }

    /** On the OpenCL device here (PoCL in CI): every program builds, with its flags off and on, and has its kernels. */
    @Test
    void everyProgramBuildsWithItsOptionsAndHasItsKernels() throws Exception {
        assumeTrue(ClRuntime.unavailableReason() == null, () -> "no OpenCL here: " + ClRuntime.unavailableReason());
        ClDeviceContext ctx = ClRuntime.context(ClRuntime.select(DeviceSelector.parse("")));
        List<ClProgramBuilder<?>> builders = builders();
        assertEquals(5, builders.size(), "programs of kernels/opencl.def");
        for (boolean flags : new boolean[]{false, true}) {
            if (flags && !ctx.hasExtension("cl_khr_fp64")) continue;
            for (ClProgramBuilder<?> b : builders()) {
                ClProgramSpec spec = complete(b, flags);
                List<String> names = kernels(b);
                assertFalse(names.isEmpty(), spec.file());
                for (String name : names) ClKernel.create(ctx.program(spec), name, flags).release();
            }
        }
    }

    /** A source whose option is missing from the build, or renamed in the source only, stops with the option's name. */
    @Test
    void aSourceBuiltWithoutOneOfItsOptionsStopsNamingIt() {
        assumeTrue(ClRuntime.unavailableReason() == null, () -> "no OpenCL here: " + ClRuntime.unavailableReason());
        ClDeviceContext ctx = ClRuntime.context(ClRuntime.select(DeviceSelector.parse("")));
        ClProgramSpec alu = ClPrograms.bpAlu().linear(true).channels(1).coordDouble(false).halfStorage(false).group(8).pix(2).pchunk(4)
                .build();
        String source = KernelSources.get(alu.file());
        OpenClException missing = assertThrows(OpenClException.class,
                () -> ctx.program(alu.file(), source, alu.options().replace(" -DPIX=2", "")));
        assertTrue(missing.getMessage().contains("build option PIX missing"), missing.getMessage());

        String renamed = source.replace("PCHUNK", "PROJECTION_CHUNK");
        assertNotEquals(source, renamed);
        OpenClException stale = assertThrows(OpenClException.class, () -> ctx.program(alu.file(), renamed, alu.options()));
        assertTrue(stale.getMessage().contains("build option PROJECTION_CHUNK missing"), stale.getMessage());
    }

    /**
     * An option renamed in kernels/opencl.def (bp_alu.cl's {@code PIX} as {@code PIXELS}) renames its setter: the
     * backend's sources, still setting {@code pix}, no longer compile; with the table as committed they do.
     */
    @Test
    void anOptionRenamedInTheTableFailsTheBuildAtItsCaller(@TempDir Path tmp) throws Exception {
        Path committed = GeneratedBuild.moduleDir().resolve("../kernels/opencl.def");
        String table = Files.readString(committed);
        String renamed = table.replaceFirst("(?m)^(\\s+option )PIX int", "$1PIXELS int");
        assertNotEquals(table, renamed);
        assertEquals(List.of(), compile(table, tmp.resolve("committed")), "the backend compiles with the committed table");

        List<String> errors = compile(renamed, tmp.resolve("renamed"));
        assertFalse(errors.isEmpty(), "the backend must not compile once the option is renamed");
        for (String e : errors) assertTrue(e.startsWith("ClBackprojectKernels.java") && e.contains("pix(int)"), e);
    }

    /** A table the generator cannot read is refused naming its file and line, and nothing is generated from it. */
    @Test
    void aMalformedTableIsRefusedNamingItsLine(@TempDir Path tmp) throws Exception {
        String[][] cases = {
            {"  option K int\n", "line 1", "an option before any program"},
            {"program a.cl\n  option lower int\n  kernel a\n", "line 2", "expected 'option NAME int|flag'"},
            {"program a.cl\n  option K float\n  kernel a\n", "line 2", "expected 'option NAME int|flag'"},
            {"program a.cl\n  kernel a\nprogram a.cl\n  kernel b\n", "line 3", "a.cl listed twice"},
            {"program a.cl -DX=1\n  kernel a\n", "line 1", "not a compiler flag: -DX=1"},
            {"program a.cl\n  option K int\n", "a.cl lists no kernel", ""},
        };
        for (int i = 0; i < cases.length; i++) {
            Path table = tmp.resolve("bad" + i + ".def"), out = tmp.resolve("out" + i);
            Files.writeString(table, cases[i][0]);
            GeneratedBuild.Run r = GeneratedBuild.run("ClProgramsGenerator", table, out);
            assertNotEquals(0, r.exit(), cases[i][0]);
            assertTrue(r.output().contains(table.toString()) && r.output().contains(cases[i][1])
                    && r.output().contains(cases[i][2]), r.output());
            assertFalse(Files.exists(out.resolve("org/tomospark/executor/backends/opencl/ClPrograms.java")), cases[i][0]);
        }
    }

    private static List<String> compile(String table, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path file = dir.resolve("opencl.def");
        Files.writeString(file, table);
        GeneratedBuild.generate("ClProgramsGenerator", file, dir.resolve("generated"));
        return GeneratedBuild.compileErrors("org/tomospark/executor/backends/opencl", dir.resolve("generated"), dir.resolve("classes"),
                CL.class, Logger.class);
    }
}
