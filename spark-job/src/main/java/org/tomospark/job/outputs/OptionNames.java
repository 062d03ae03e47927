package org.tomospark.job.outputs;

import java.io.Serializable;

/**
 * How the user names the options that decide what happens to an output (input, output, overwrite, resume), so that an
 * error tells them what to type: {@code --overwrite} on the command line, {@code .overwrite()} in a notebook.
 */
public record OptionNames(String input, String output, String overwrite, String resume) implements Serializable {
    /** The command line's and spark-submit's wording. */
    public static final OptionNames CLI = new OptionNames("--input", "--output", "--overwrite", "--resume");
    /** The notebook API's wording ({@code org.tomospark.notebook.Reconstruction}'s builder methods). */
    public static final OptionNames NOTEBOOK =
            new OptionNames(".input(...)", ".output(...)", ".overwrite()", ".resume()");
}
