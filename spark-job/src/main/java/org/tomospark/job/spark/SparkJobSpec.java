package org.tomospark.job.spark;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.outputs.OptionNames;

import java.io.Serializable;
import java.util.Map;

/**
 * Everything a Spark reconstruction needs: input and output URIs, the algorithm parameters, the commit policy,
 * how to read the input and the engine's settings. {@code settings} are the user's configuration as given
 * (recorded in the manifest).
 */
public record SparkJobSpec(String input, String output, ReconstructionParams params, boolean overwrite, boolean resume,
                           boolean preview, InputOptions inputOptions, SparkOptions spark, Map<String, String> settings,
                           OptionNames names)
        implements Serializable {
    public SparkJobSpec {
        if (names == null) names = OptionNames.CLI;
        if (input == null || input.isBlank())
            throw new IllegalArgumentException("input: no input given (" + names.input() + ")");
        if (output == null || output.isBlank())
            throw new IllegalArgumentException("output: no output given (" + names.output() + ")");
        if (params == null) params = ReconstructionParams.builder().build();
        if (inputOptions == null) inputOptions = InputOptions.defaults();
        if (spark == null) spark = SparkOptions.defaults();
        settings = settings == null ? Map.of() : Map.copyOf(settings);
        if (overwrite && resume)
            throw new IllegalArgumentException(names.overwrite() + " and " + names.resume() + " cannot be used "
                    + "together");
    }

    /** A spec with the command line's option names in its errors. */
    public SparkJobSpec(String input, String output, ReconstructionParams params, boolean overwrite, boolean resume,
                        boolean preview, InputOptions inputOptions, SparkOptions spark, Map<String, String> settings) {
        this(input, output, params, overwrite, resume, preview, inputOptions, spark, settings, OptionNames.CLI);
    }

    public static SparkJobSpec of(String input, String output, ReconstructionParams params) {
        return new SparkJobSpec(input, output, params, false, false, false, null, null, null, OptionNames.CLI);
    }

    public SparkJobSpec withOverwrite(boolean o) {
        return new SparkJobSpec(input, output, params, o, resume, preview, inputOptions, spark, settings, names);
    }

    public SparkJobSpec withResume(boolean r) {
        return new SparkJobSpec(input, output, params, overwrite, r, preview, inputOptions, spark, settings, names);
    }

    public SparkJobSpec withParams(ReconstructionParams p) {
        return new SparkJobSpec(input, output, p, overwrite, resume, preview, inputOptions, spark, settings, names);
    }

    public SparkJobSpec withInputOptions(InputOptions o) {
        return new SparkJobSpec(input, output, params, overwrite, resume, preview, o, spark, settings, names);
    }

    public SparkJobSpec withSpark(SparkOptions s) {
        return new SparkJobSpec(input, output, params, overwrite, resume, preview, inputOptions, s, settings, names);
    }

    public SparkJobSpec withOutput(String o) {
        return new SparkJobSpec(input, o, params, overwrite, resume, preview, inputOptions, spark, settings, names);
    }

    public SparkJobSpec withPreview(boolean p) {
        return new SparkJobSpec(input, output, params, overwrite, resume, p, inputOptions, spark, settings, names);
    }

    public SparkJobSpec withNames(OptionNames n) {
        return new SparkJobSpec(input, output, params, overwrite, resume, preview, inputOptions, spark, settings, n);
    }
}
