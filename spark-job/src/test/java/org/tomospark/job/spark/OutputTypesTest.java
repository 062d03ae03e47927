package org.tomospark.job.spark;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * output.type on both engines: one scan written as float32, float16 and uint16 slices, which tifffile and numpy
 * (check_types.py) compare: float16 equal to numpy's rounding of the float32 slices, uint16 the float32 values counted
 * on the given range (clamped outside it) with ImageJ's calibration in the ImageDescription; the scaling is in
 * manifest.json and report.json; a range from percentiles is numpy's percentiles of the middle slice.
 */
class OutputTypesTest {
    static final String MIN = "-0.0005", MAX = "0.02";

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void compactTypesMatchTheFloat32SlicesWithinTheirQuantisation(String engine) throws Exception {
        if (engine.equals("spark")) TestScans.spark();
        Path base = TestScans.tmp("types-" + engine);
        String input = TestScans.hdf5().toString();
        for (String type : new String[]{"float32", "float16", "uint16"}) {
            CliRun r = FaultMatrixTest.cli(engine, "--input", input, "--output", base.resolve(type).toString(),
                    "--center",
                    "47.5", "--output-type", type, "--output-range", MIN + "," + MAX);
            assertEquals(0, r.code(), r.err());
        }
        String log = PythonCheck.run("check_types.py",base.resolve("float32").toString(),
                base.resolve("float16").toString(),
                base.resolve("uint16").toString(), MIN, MAX);
        assertTrue(log.startsWith("ok: 16 slices; float16"), log);
        Map<String, Object> manifest = Json.read(Files.readAllBytes(base.resolve("uint16/manifest.json")),
                "manifest.json");
        @SuppressWarnings("unchecked")
        Map<String, Object> type = (Map<String, Object>) ((Map<String, Object>) manifest.get("output")).get("type");
        assertEquals("uint16", type.get("type"));
        assertEquals(-0.0005, ((Number) type.get("offset")).doubleValue());
        assertEquals((0.02 + 0.0005) / 65535, ((Number) type.get("scale")).doubleValue(), 1e-18);
        Map<String, Object> report = Json.read(Files.readAllBytes(base.resolve("uint16/report.json")), "report.json");
        assertEquals(type, report.get("outputType"));

        // the range from the percentiles of the middle slice (row 7 of 0..15), as numpy computes them
        CliRun r = FaultMatrixTest.cli(engine, "--input", input, "--output", base.resolve("auto").toString(),
                "--center",
                "47.5", "--output-type", "uint16", "--output-range", "auto", "--conf", "output.percentiles=1,99");
        assertEquals(0, r.code(), r.err());
        String auto = PythonCheck.run("check_types.py", "--auto", base.resolve("float32").toString(),
                base.resolve("auto").toString(), "7", "1",
                "99");
        assertTrue(auto.startsWith("ok: range") && auto.contains("ok: 16 slices"), auto);
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void uint16WithoutARangeIsRefusedNamingTheKeys(String engine) {
        if (engine.equals("spark")) TestScans.spark();
        Path out = FaultMatrixTest.out(engine + "-uint16-norange");
        FaultMatrixTest.assertRefused(FaultMatrixTest.cli(engine, "--input", TestScans.hdf5().toString(), "--output",
                out.toString(), "--center", "47.5", "--output-type", "uint16"), 2, out, "output.type=uint16",
                "output.range");
    }
}
