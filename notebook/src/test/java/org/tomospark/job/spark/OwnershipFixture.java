package org.tomospark.job.spark;

import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.ExitCode;
import org.tomospark.notebook.Reconstruction;
import org.tomospark.job.cli.CliRun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One case of the ownership tests: a folder holding the scan ({@code in/NAME.h5}), the output root ({@code out/}) with
 * the output ({@code out/NAME}), a folder elsewhere for links to lead to, and the files the user made there
 * ({@link #userFile}), which no run may change. {@link #run} runs the case through one of the four ways in: the
 * direct engine, the Spark engine (both through the command line), the notebook API, and {@code reprocess} of the one
 * scan into the output root.
 */
final class OwnershipFixture {
    /** A small scan: 32 columns, 8 rows, 36 angles; its centre is 15.5. */
    static final DemoDataset DATA = new DemoDataset(DemoDataset.Spec.demo().withSize(32, 8, 36));
    static final String CENTER = "15.5";
    private static Path master;

    /** The ways a run starts. */
    enum Engine { DIRECT, SPARK, NOTEBOOK, REPROCESS }

    /** A run's exit status (the notebook's: of its exception) and what it said. */
    record Outcome(int code, String message) {
    }

    final Path dir;
    final Path scan;
    final Path out;
    final Path elsewhere;
    private final Set<String> user = new HashSet<>();

    OwnershipFixture(String name) {
        this(name, "rec");
    }

    /** @param output the output folder's name (and the scan file's, without .h5) */
    OwnershipFixture(String name, String output) {
        dir = TestScans.tmp("own-" + name);
        scan = dir.resolve("in").resolve(output + ".h5");
        out = dir.resolve("out").resolve(output);
        elsewhere = dir.resolve("elsewhere");
        try {
            Files.createDirectories(scan.getParent());
            Files.createDirectories(out.getParent());
            Files.createDirectories(elsewhere);
            Files.copy(master(), scan, StandardCopyOption.COPY_ATTRIBUTES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        user.add(rel(scan));
        userFile("elsewhere/keep.txt", "someone else's");
    }

    static synchronized Path master() {
        if (master == null) {
            master = TestScans.tmp("own-master").resolve("scan.h5");
            DATA.writeHdf5(master);
        }
        return master;
    }

    String rel(Path p) {
        return dir.relativize(p).toString();
    }

    /** A file the user made (relative to the case's folder); no run may change it. */
    Path userFile(String rel, String content) {
        Path p = dir.resolve(rel);
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        user.add(rel);
        return p;
    }

    /** A file of the user's that the test itself removed. */
    void forget(String rel) {
        user.remove(rel);
    }

    /** A link the user made; no run may change or remove it (nor what it leads to, unless the run writes there). */
    Path userLink(String rel, Path target) {
        Path p = dir.resolve(rel);
        try {
            Files.createDirectories(p.getParent());
            Files.createSymbolicLink(p, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        user.add(rel);
        return p;
    }

    /**
     * What a run into {@code out} may change: what lies under the output folder (or under {@code alsoUnder}, where the
     * output leads) that the user did not make, and for a batch its report.
     */
    Predicate<String> outputsOnly(Engine e, String... alsoUnder) {
        String o = rel(out);
        List<String> roots = new ArrayList<>(List.of(o));
        roots.addAll(List.of(alsoUnder));
        return p -> !user.contains(p) && (roots.stream().anyMatch(r -> p.equals(r) || p.startsWith(r + "/"))
                || (e == Engine.REPROCESS && p.equals(rel(out.getParent().resolve("batch-report.json")))));
    }

    /** What a refused run, or one with nothing to do, may change: a batch's report only. */
    Predicate<String> nothing(Engine e) {
        String report = rel(out.getParent().resolve("batch-report.json"));
        return p -> e == Engine.REPROCESS && p.equals(report);
    }

    TreeSnapshot snapshot() {
        return TreeSnapshot.of(dir);
    }

    /**
     * Runs the scan into the output through {@code e} with these options ({@code --resume}, {@code --overwrite},
     * {@code --slices A:B}, {@code --output-format F}, {@code --conf K=V}, {@code --center C}); a batch always resumes,
     * so it drops {@code --resume}.
     */
    Outcome run(Engine e, String... flags) {
        return switch (e) {
            case DIRECT, SPARK -> cli(e, flags);
            case NOTEBOOK -> notebook(flags);
            case REPROCESS -> reprocess(flags);
        };
    }

    private Outcome cli(Engine e, String... flags) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", e == Engine.DIRECT ? "direct" : "spark",
                "--backend", "java", "--conf", "job.progress=false", "--input", scan.toString(), "--output", out.toString()));
        if (!List.of(flags).contains("--center")) a.addAll(List.of("--center", CENTER));
        a.addAll(List.of(flags));
        CliRun r = CliRun.of(a.toArray(String[]::new));
        return new Outcome(r.code(), r.err());
    }

    private Outcome reprocess(String... flags) {
        List<String> a = new ArrayList<>(List.of("reprocess", scan.toString(), "--output-root", out.getParent().toString(),
                "--backend", "java", "--conf", "job.progress=false"));
        if (!List.of(flags).contains("--center")) a.addAll(List.of("--center", CENTER));
        for (String f : flags) if (!f.equals("--resume")) a.add(f);
        CliRun r = CliRun.of(a.toArray(String[]::new));
        return new Outcome(r.code(), r.err());
    }

    private Outcome notebook(String... flags) {
        try {
            return new Outcome(0, notebookBuilder(flags).run().summary());
        } catch (RuntimeException ex) {
            return new Outcome(ExitCode.of(ex).code(), String.valueOf(ex.getMessage()));
        }
    }

    /** The builder a notebook user writes for these options (a bad value is refused by the method that takes it). */
    private Reconstruction.Builder notebookBuilder(String... flags) {
        Reconstruction.Builder b = Reconstruction.builder(TestScans.spark()).input(scan.toString()).output(out.toString())
                .backend("java");
        if (!List.of(flags).contains("--center")) b = b.center(Double.parseDouble(CENTER));
        for (int i = 0; i < flags.length; i++) {
            switch (flags[i]) {
                case "--resume" -> b = b.resume();
                case "--overwrite" -> b = b.overwrite();
                case "--slices" -> {
                    String[] ab = flags[++i].split(":");
                    b = b.slices(Integer.parseInt(ab[0]), Integer.parseInt(ab[1]));
                }
                case "--output-format" -> b = b.outputFormat(flags[++i]);
                case "--center" -> b = b.conf("center", flags[++i]);
                case "--conf" -> {
                    String[] kv = flags[++i].split("=", 2);
                    b = b.conf(kv[0], kv[1]);
                }
                default -> throw new IllegalStateException("no notebook method for " + flags[i]);
            }
        }
        return b;
    }
}
