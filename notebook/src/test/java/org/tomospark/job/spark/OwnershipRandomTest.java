package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.job.cli.CliRun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded random walk over what users do to their folders between runs, and the runs themselves: reconstructions on
 * both engines with every combination of {@code --resume}, {@code --overwrite}, {@code --slices} and output format,
 * batches by folder, glob and list file, runs killed by SIGKILL or failing mid-commit, files of the user's own (some
 * named as the product names its files) and links made and removed, in the outputs, the root and beside them. Before
 * each run the whole folder is snapshotted; after it, every file the run does not own (the user's files and links
 * wherever they are, the inputs, and every output the run was not pointed at) must be byte- and time-identical.
 */
class OwnershipRandomTest {
    static final long SEED = 20261127L;
    static final int STEPS = 240;
    static final List<String> SCANS = List.of("s1", "s 2", "s%3:x");
    static final List<String> OUTPUTS = List.of("a", "b", "c d");
    /** Names the user gives their own files: the product's, and others. */
    static final List<String> NAMES = List.of("manifest.json", "report.json", "_SUCCESS", "slice_00002.tif", "volume.h5",
            "volume.raw", "preview.png", "_committed/slice_00001.sha256", "volume.zarr/0.0.0", "notes.txt", "slice_2.tif",
            "_temporary/mine.txt", "batch-report.json", "_lock");

    private final Random random = new Random(SEED);
    private Path w;
    /** Everything the user (this test) made, relative to the folder: no run may change it. */
    private final Set<String> user = new HashSet<>();
    private final Map<String, Integer> counts = new TreeMap<>();

    @Test
    @Timeout(900)
    void runsNeverChangeWhatTheyDoNotOwn() throws Exception {
        TestScans.spark();
        w = TestScans.tmp("own-random");
        for (String s : SCANS) {
            Path p = w.resolve("in/" + s + ".h5");
            Files.createDirectories(p.getParent());
            Files.copy(OwnershipFixture.master(), p);
            user.add("in/" + s + ".h5");
        }
        Files.createDirectories(w.resolve("out"));
        Files.createDirectories(w.resolve("elsewhere"));
        userFile("elsewhere/keep.txt", "someone else's");
        userFile("list.txt", "# the scans\n\n" + w.resolve("in/s 2.h5") + "\n" + w.resolve("in/s%3:x.h5") + "\n");
        for (int step = 0; step < STEPS; step++) step(step);
        System.out.println("ownership random walk, seed " + SEED + ": " + counts);
        for (String k : List.of("direct", "spark", "reprocess", "killed", "failed mid-commit", "user file", "user link"))
            assertTrue(counts.getOrDefault(k, 0) > 0, "the walk took no step '" + k + "': " + counts);
    }

    private void step(int n) throws Exception {
        double r = random.nextDouble();
        if (r < 0.10) userMakesAFile();
        else if (r < 0.16) userMakesALink();
        else if (r < 0.22) userRemovesSomething(null);
        else if (r < 0.27) interrupted(n);
        else if (r < 0.42) reprocess(n);
        else reconstruct(n);
    }

    // ---- what the user does

    private void userMakesAFile() throws IOException {
        String where = random.nextDouble() < 0.8 ? "out/" + pick(OUTPUTS) : random.nextBoolean() ? "out" : "elsewhere";
        String rel = where + "/" + (random.nextBoolean() ? pick(NAMES) : pick(List.of("notes.txt", "my data.h5", "slice_2.tif")));
        Path p = w.resolve(rel);
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) || !parentIsAFolder(p)) return;
        userFile(rel, "the user's " + rel + " " + random.nextInt());
        count("user file");
    }

    private boolean parentIsAFolder(Path p) throws IOException {
        for (Path q = p.getParent(); !q.equals(w); q = q.getParent()) {
            if (Files.isSymbolicLink(q)) return false;
            if (Files.exists(q) && !Files.isDirectory(q)) return false;
        }
        Files.createDirectories(p.getParent());
        return true;
    }

    private void userMakesALink() throws IOException {
        String rel;
        Path target;
        double r = random.nextDouble();
        if (r < 0.4) {
            rel = "out/" + pick(OUTPUTS); // an output that leads elsewhere, or to another output of the root
            target = random.nextBoolean() ? w.resolve("elsewhere/" + random.nextInt(3)) : w.resolve("out/" + pick(OUTPUTS));
        } else if (r < 0.8) {
            rel = "out/" + pick(OUTPUTS) + "/" + pick(List.of("preview.png", "_committed", "volume.zarr", "slice_00001.tif", "x"));
            target = w.resolve(random.nextBoolean() ? "elsewhere/keep.txt" : "elsewhere");
        } else {
            rel = "in/link " + random.nextInt(3) + ".h5";
            target = w.resolve("in/" + pick(SCANS) + ".h5");
        }
        Path p = w.resolve(rel);
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) || !parentIsAFolder(p)) return;
        Files.createSymbolicLink(p, target);
        user.add(rel);
        count("user link");
    }

    /** The user moves one of their files or links away, one under {@code within} when given (as a refusal advises). */
    private void userRemovesSomething(String within) throws IOException {
        List<String> removable = new ArrayList<>();
        for (String u : user)
            if (!u.startsWith("in/s") && !u.equals("list.txt") && !u.equals("elsewhere/keep.txt")
                    && (within == null || u.equals(within) || u.startsWith(within + "/"))) removable.add(u);
        if (removable.isEmpty()) return;
        removable.sort(null);
        String rel = pick(removable);
        Files.deleteIfExists(w.resolve(rel));
        user.remove(rel);
        count("user removes");
    }

    private void userFile(String rel, String content) throws IOException {
        Files.writeString(w.resolve(rel), content);
        user.add(rel);
    }

    // ---- the runs

    private void reconstruct(int n) throws IOException {
        boolean spark = random.nextDouble() < 0.3;
        String scan = pick(SCANS), output = pick(OUTPUTS);
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", spark ? "spark" : "direct", "--backend", "java",
                "--conf", "job.progress=false", "--center", OwnershipFixture.CENTER, "--input", w.resolve("in/" + scan + ".h5")
                        .toString(), "--output", w.resolve("out/" + output).toString()));
        a.addAll(flags(true));
        boolean failing = spark && random.nextDouble() < 0.25;
        if (failing) a.addAll(List.of("--conf", "group.rows=2", "--conf", "job.test.failWriteOfGroup=1"));
        int code = run(n, spark ? "spark" : "direct", a, targets(List.of("out/" + output)), false);
        if (failing) count("failed mid-commit");
        // refused for a file or link of theirs, a user mostly moves it away, as the message advises
        if ((code == 2 || code == 3) && random.nextDouble() < 0.7) userRemovesSomething("out/" + output);
    }

    private void reprocess(int n) throws IOException {
        List<String> a = new ArrayList<>(List.of("reprocess"));
        double r = random.nextDouble();
        a.add(r < 0.4 ? w.resolve("in").toString() : r < 0.7 ? w.resolve("in") + "/s*.h5" : "@" + w.resolve("list.txt"));
        a.addAll(List.of("--output-root", w.resolve("out").toString(), "--backend", "java", "--conf", "job.progress=false",
                "--center", OwnershipFixture.CENTER));
        a.addAll(flags(false));
        // a batch writes its scans' folders (one per scan file in in/, links to scans too) and its report, in its root only
        List<String> t = new ArrayList<>();
        try (var files = Files.list(w.resolve("in"))) {
            for (Path f : files.toList()) t.add("out/" + f.getFileName().toString().replaceAll("\\.h5$", ""));
        }
        Predicate<String> may = p -> p.equals("out/batch-report.json") || under(p, t);
        if (run(n, "reprocess", a, may, true) != 0 && random.nextDouble() < 0.7) userRemovesSomething("out");
    }

    /** A run started in its own JVM and killed (SIGKILL) after a random time: before, during or after its work. */
    private void interrupted(int n) throws Exception {
        String scan = pick(SCANS), output = pick(OUTPUTS);
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--add-modules", "jdk.incubator.vector", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp", System.getProperty("java.class.path"), "org.tomospark.job.cli.TomoCli", "reconstruct", "--engine", "direct",
                "--backend", "java", "--conf", "job.progress=false", "--center", OwnershipFixture.CENTER, "--input",
                w.resolve("in/" + scan + ".h5").toString(), "--output", w.resolve("out/" + output).toString()));
        cmd.addAll(flags(true));
        Predicate<String> may = targets(List.of("out/" + output));
        TreeSnapshot before = TreeSnapshot.of(w);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        boolean ended = p.waitFor(300 + random.nextInt(2500), TimeUnit.MILLISECONDS);
        if (!ended) p.destroyForcibly().waitFor();
        before.assertUnchangedBut(TreeSnapshot.of(w), may, "step " + n + " (killed: "
                + String.join(" ", cmd.subList(cmd.indexOf("reconstruct"), cmd.size())) + ")");
        count("killed");
    }

    /** --resume, --overwrite (not for a batch: it always resumes), --slices, an output format, each or none. */
    private List<String> flags(boolean single) {
        List<String> f = new ArrayList<>();
        double r = random.nextDouble();
        if (r < 0.45 && single) f.add("--resume");
        else if (r < 0.7) f.add("--overwrite");
        if (random.nextDouble() < 0.4) {
            int a = random.nextInt(7), b = a + 1 + random.nextInt(8 - a);
            f.addAll(List.of("--slices", a + ":" + b));
        }
        if (random.nextDouble() < 0.35) f.addAll(List.of("--output-format", pick(List.of("tiff", "zarr", "hdf5"))));
        return f;
    }

    /**
     * What a run into these outputs may change: what lies there (where a link leads, for a single run) that the user
     * did not make.
     */
    private Predicate<String> targets(List<String> outputs) throws IOException {
        List<String> roots = new ArrayList<>();
        for (String o : outputs) {
            roots.add(o);
            Path real = real(w.resolve(o));
            Path wr = w.toRealPath();
            if (real.startsWith(wr)) roots.add(wr.relativize(real).toString());
        }
        return p -> under(p, roots);
    }

    private boolean under(String p, List<String> roots) {
        if (user.contains(p)) return false;
        for (String r : roots) if (p.equals(r) || p.startsWith(r + "/")) return true;
        return false;
    }

    /** Where a path leads, links followed, whether or not it exists. */
    private static Path real(Path p) throws IOException {
        Path cur = p.getRoot();
        for (Path name : p) {
            Path next = cur.resolve(name);
            int hops = 0;
            while (Files.isSymbolicLink(next) && hops++ < 40) next = next.getParent().resolve(Files.readSymbolicLink(next)).normalize();
            cur = Files.exists(next) ? next.toRealPath() : next;
        }
        return cur;
    }

    private int run(int n, String kind, List<String> args, Predicate<String> may, boolean batch) {
        TreeSnapshot before = TreeSnapshot.of(w);
        CliRun r = CliRun.of(args.toArray(String[]::new));
        TreeSnapshot after = TreeSnapshot.of(w);
        String what = "step " + n + " (" + String.join(" ", args.subList(1, args.size())) + " -> exit " + r.code() + ": "
                + firstLine(r.err()) + ")";
        before.assertUnchangedBut(after, may, what);
        // a refused run (bad input, a foreign file, a claim) changes nothing but the claim of a run that died there
        // (a killed step's), which it takes over and gives up; a batch writes its report
        if (r.code() == 2 || r.code() == 3)
            before.assertUnchangedBut(after, p -> batch && p.equals("out/batch-report.json")
                    || p.endsWith("/_lock") && may.test(p), what);
        assertTrue(r.code() != 1, what + ": an internal error\n" + r.err());
        count(kind);
        count(kind + " exit " + r.code());
        if (r.code() != 0) System.out.println("walk: " + what);
        return r.code();
    }

    private static String firstLine(String s) {
        for (String l : s.split("\n")) if (l.startsWith("error:")) return l;
        return "";
    }

    private <T> T pick(List<T> l) {
        return l.get(random.nextInt(l.size()));
    }

    private void count(String k) {
        counts.merge(k, 1, Integer::sum);
    }
}
