package org.tomospark.job.cli;

import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.DeviceWarmUp;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.ExitCode;
import org.tomospark.job.JobKeys;
import org.tomospark.job.fs.IoWarmUp;
import org.tomospark.job.run.Version;
import org.tomospark.job.spark.SparkStart;
import org.tomospark.job.spark.YarnGpus;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** The command-line entry: {@code tomospark reconstruct|reprocess|find-centers|demo-data|config-docs|backends}. */
@Command(name = "tomospark", mixinStandardHelpOptions = true, versionProvider = TomoCli.VersionProvider.class,
        description = "Parallel-beam CT reconstruction (filtered back-projection) on Spark, with GPU back-projection.",
        subcommands = {ReconstructCommand.class, ReprocessCommand.class, FindCentersCommand.class, DemoDataCommand.class,
                ConfigDocsCommand.class, BackendsCommand.class, CommandLine.HelpCommand.class})
public final class TomoCli {
    /** Spark being started while the command line is parsed, for a reconstruction on the Spark engine; else null. */
    private final SparkStart sparkStart;

    TomoCli() {
        this(null);
    }

    private TomoCli(SparkStart sparkStart) {
        this.sparkStart = sparkStart;
    }

    /** Spark as the command line began starting it (null: not begun; the command starts its own). */
    SparkStart sparkStart() {
        return sparkStart;
    }

    public static void main(String[] args) {
        if (mayUseGpus(args)) DeviceWarmUp.probeGpusEarly();
        if (readsAScan(args)) IoWarmUp.start();
        String app = EngineLauncher.appName(Objects.requireNonNullElse(optionValue(args, "--input"), "reconstruct"));
        // on YARN the settings are checked before the context starts, which would submit an application
        SparkStart spark = runsOnSpark(args) ? SparkStart.begin(() -> SparkStart.settings(app),
                YarnGpus.beforeStart(value(args, "--backend", CoreKeys.BACKEND.name()))) : null;
        int code;
        try {
            code = run(new TomoCli(spark), args);
        } finally {
            // a command that did not take it (a bad command line, a sweep) leaves it started: stopped here
            if (spark != null) spark.stop();
        }
        // the outputs are complete: the devices are given back now, which the driver does faster than at the exit
        Backends.releaseBeforeExit();
        if (inYarnApplicationMaster()) {
            // YARN's ApplicationMaster reports the application's final status when main returns or throws; an exit
            // would end the container first and the application be reported failed whatever the status
            if (code != ExitCode.OK.code())
                throw new IllegalStateException("tomospark " + (args.length > 0 ? args[0] : "") + " ended with exit status " + code
                        + " (see the driver's log above)");
            return;
        }
        System.exit(code);
    }

    /** Whether this is the driver of a Spark application in YARN's cluster mode (its ApplicationMaster's container). */
    static boolean inYarnApplicationMaster() {
        return "cluster".equals(System.getProperty("spark.submit.deployMode"))
                && System.getProperty("spark.master", "").startsWith("yarn");
    }

    /** Whether a command reads a scan and writes an output: its file system and JSON warm up while it is parsed. */
    static boolean readsAScan(String[] args) {
        return args.length > 0 && List.of("reconstruct", "reprocess", "find-centers").contains(args[0]);
    }

    /**
     * Whether the command line asks for a reconstruction on the Spark engine ({@code --engine spark} or {@code --conf
     * engine=spark}) and no sweep (which runs in this JVM without Spark): its Spark context then starts while the
     * command line is parsed and the input is opened.
     */
    static boolean runsOnSpark(String[] args) {
        if (args.length == 0 || !args[0].equals("reconstruct")) return false;
        if (value(args, "--center-sweep", CoreKeys.CENTER_SWEEP.name()) != null
                || value(args, "--tv-weight-sweep", CoreKeys.TV_WEIGHT_SWEEP.name()) != null) return false;
        for (int i = 1; i < args.length; i++)
            if (args[i].equals("--help") || args[i].equals("-h") || args[i].equals("--version") || args[i].equals("-V")) return false;
        // a login from a keytab comes first: Spark's context takes the process's user as it starts
        if (confValue(args, JobKeys.KERBEROS_PRINCIPAL.name()) != null || configNamesKerberos(optionValue(args, "--config")))
            return false;
        String engine = value(args, "--engine", JobKeys.ENGINE.name());
        return "spark".equalsIgnoreCase(engine == null ? null : engine.trim());
    }

    /** The value of {@code --name VALUE} or {@code --name=VALUE} (the last one given), or null. */
    static String optionValue(String[] args, String name) {
        String value = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith(name + "=")) value = args[i].substring(name.length() + 1);
            else if (args[i].equals(name) && i + 1 < args.length) value = args[i + 1];
        }
        return value;
    }

    /** The value of {@code --conf KEY=VALUE} or {@code --conf=KEY=VALUE} (the last one given), or null. */
    static String confValue(String[] args, String key) {
        String value = null;
        for (int i = 1; i < args.length; i++) {
            String kv = args[i].startsWith("--conf=") ? args[i].substring("--conf=".length())
                    : args[i].equals("--conf") && i + 1 < args.length ? args[i + 1] : null;
            if (kv != null && kv.startsWith(key + "=")) value = kv.substring(key.length() + 1);
        }
        return value;
    }

    /**
     * Whether a command may run on a GPU backend: a reconstruction or batch whose command line names no backend, or one
     * that runs on the GPUs a run is given ({@code --backend ID} or {@code --conf backend=ID}, the option winning, the
     * last one given), and not gridrec, which runs on CPUs. Those backends' probes then start while the command line is
     * parsed and the run is set up.
     */
    static boolean mayUseGpus(String[] args) {
        if (args.length == 0 || !(args[0].equals("reconstruct") || args[0].equals("reprocess"))) return false;
        String algorithm = value(args, "--algorithm", CoreKeys.ALGORITHM.name());
        if (algorithm != null && algorithm.trim().equalsIgnoreCase(Algorithm.GRIDREC.id())) return false; // on CPUs only
        String backend = value(args, "--backend", CoreKeys.BACKEND.name());
        return backend == null || Backends.mayRunOnAssignedGpus(backend);
    }

    /**
     * Whether a config file may set the Kerberos principal: a local one that names it, or one elsewhere (on HDFS, say),
     * which only the command reads; its context then starts after the command's login, as it must.
     */
    private static boolean configNamesKerberos(String config) {
        if (config == null) return false;
        try {
            Path file = Path.of(config);
            return !Files.isRegularFile(file) || Files.readString(file).contains(JobKeys.KERBEROS_PRINCIPAL.name());
        } catch (IOException | RuntimeException e) {
            return true; // not a local file this process can read: the command reads it, and starts Spark after its login
        }
    }

    /** A setting as the command line gives it: its option ({@code --name}), which wins, else {@code --conf key=}; or null. */
    private static String value(String[] args, String option, String key) {
        String v = optionValue(args, option);
        return v != null ? v : confValue(args, key);
    }

    /**
     * Runs the CLI and returns the exit status ({@link ExitCode}: 0 success, 1 internal error, 2 bad usage or input,
     * 3 environment, 4 a run that failed after it started, 5 a batch with failed scans).
     */
    public static int run(String... args) {
        return run(new TomoCli(), args);
    }

    private static int run(TomoCli cli, String... args) {
        CommandLine cl = new CommandLine(cli);
        // an argument beginning with '@' is a path or a batch's list file, read by the command itself (ScanInputs), never
        // a file of more options: a list's lines are scans, and a scan's name may hold spaces
        cl.setExpandAtFiles(false);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> report(ex, cmd.getErr()));
        try {
            return cl.execute(args);
        } catch (Error e) {
            // picocli passes Errors through; a disk error of the local file system is one (Hadoop's FSError)
            return report(e, cl.getErr());
        }
    }

    /** Prints one "error: …" line (and the stack trace for internal errors) and returns the exit status. */
    static int report(Throwable t, PrintWriter err) {
        ExitCode code = ExitCode.of(t);
        err.println("error: " + t.getMessage());
        if (Boolean.getBoolean("tomospark.stacktrace") || !code.expected()) t.printStackTrace(err);
        err.flush();
        return code.code();
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"tomospark " + Version.get()};
        }
    }
}
