package org.tomospark.job.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command-line entry: {@code tomospark reconstruct|demo-data|config-docs|backends}. */
@Command(name = "tomospark", mixinStandardHelpOptions = true, versionProvider = TomoCli.VersionProvider.class,
        description = "Parallel-beam CT reconstruction (filtered back-projection) on Spark, with GPU back-projection.",
        subcommands = {ReconstructCommand.class, DemoDataCommand.class, ConfigDocsCommand.class, BackendsCommand.class,
                CommandLine.HelpCommand.class})
public final class TomoCli {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns the exit code (2 for bad usage or input, 1 for other failures). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new TomoCli());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            Throwable t = ex;
            boolean usage = t instanceof IllegalArgumentException;
            cmd.getErr().println("error: " + t.getMessage());
            if (Boolean.getBoolean("tomospark.stacktrace") || !(usage || t instanceof IllegalStateException)) t.printStackTrace(cmd.getErr());
            return usage ? 2 : 1;
        });
        return cl.execute(args);
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"tomospark " + org.tomospark.job.local.Version.get()};
        }
    }
}
