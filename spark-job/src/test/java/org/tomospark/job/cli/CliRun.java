package org.tomospark.job.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

/** One in-process CLI run for tests: its exit code and what it wrote to standard error. */
public record CliRun(int code, String err) {

    public static CliRun of(String... args) {
        PrintStream old = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true));
        try {
            int code = TomoCli.run(args);
            return new CliRun(code, buf.toString());
        } finally {
            System.setErr(old);
        }
    }
}
