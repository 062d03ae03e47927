package org.tomospark.job.outputs;

import org.tomospark.job.fs.FolderEntries;
import org.tomospark.job.fs.Json;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An exclusive claim on an output directory, so that two runs never write into one output at the same time.
 *
 * <p>The claim is the file {@code _lock} in the output, created atomically: on HDFS by a create that fails when the
 * file exists (the NameNode decides), on a local file system by {@code O_CREAT|O_EXCL}. It names its owner (a random
 * id, host, process id and process start). While the run lasts, a heartbeat thread renews the file's modification
 * time and checks that the file still names this owner; a run that finds its claim gone or taken stops before it
 * commits anything more ({@link #ensureHeld}).
 *
 * <p>A claim left by a run that died is taken over: at once when its process is gone from this same host, otherwise
 * once its heartbeat is older than the stale time ({@code job.output.lockTimeout}). A live claim is never taken:
 * the second run fails with {@link OutputBusyException} and changes nothing.
 */
public final class OutputLock implements AutoCloseable {
    public static final String NAME = "_lock";
    private static final Logger LOG = LoggerFactory.getLogger(OutputLock.class);

    private final FileSystem fs;
    private final Path file;
    private final String owner;
    private final ScheduledExecutorService heartbeat;
    private volatile String lost;

    private OutputLock(FileSystem fs, Path file, String owner, Duration staleAfter) {
        this.fs = fs;
        this.file = file;
        this.owner = owner;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tomospark-output-lock");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(100, staleAfter.toMillis() / 4);
        heartbeat.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
    }

    /** Who holds a claim, as written in the lock file. */
    record Holder(String owner, String host, long pid, String processStart, String started, String run) {
        String describe() {
            return "run " + run + " by process " + pid + " on " + host + ", started " + started;
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("owner", owner);
            m.put("host", host);
            m.put("pid", pid);
            m.put("processStart", processStart);
            m.put("started", started);
            m.put("run", run);
            return m;
        }

        static Holder of(Map<String, Object> m) {
            return new Holder(String.valueOf(m.get("owner")), String.valueOf(m.get("host")),
                    m.get("pid") instanceof Number n ? n.longValue() : -1, String.valueOf(m.get("processStart")),
                    String.valueOf(m.get("started")), String.valueOf(m.get("run")));
        }

        static Holder self(String owner, String run) {
            ProcessHandle me = ProcessHandle.current();
            return new Holder(owner, hostName(), me.pid(), startOf(me).orElse(""), Instant.now().toString(), run);
        }
    }

    /**
     * Claims {@code dir} (created if missing) for a run described by {@code run} (shown to a second run that is
     * refused). Throws {@link OutputBusyException} when another live run holds it.
     */
    public static OutputLock claim(Path dir, Configuration conf, Duration staleAfter, String run) {
        try {
            FileSystem fs = dir.getFileSystem(conf);
            OutputFiles.mkdirs(fs, dir);
            Path file = new Path(dir, NAME);
            String owner = UUID.randomUUID().toString();
            byte[] content = Json.write(Holder.self(owner, run).toMap());
            for (int attempt = 0; attempt < 3; attempt++) {
                FolderEntries.Kind kind = FolderEntries.kind(fs, file);
                if (kind != null && kind != FolderEntries.Kind.FILE)
                    throw new IllegalArgumentException(file + " is a " + kind.name().toLowerCase(Locale.ROOT) + ", not a claim "
                            + "a tomospark run made; a run removes only what it can show is its own, so this one stops: "
                            + "move it away if nothing uses it");
                if (createExclusive(fs, file, content)) return new OutputLock(fs, file, owner, staleAfter);
                Optional<Holder> holder = read(fs, file);
                long age = ageMillis(fs, file);
                if (age < 0) continue; // released in between: try again
                if (holder.isEmpty() && age > staleAfter.toMillis())
                    throw new OutputBusyException(dir + ": " + file.getName() + " holds no claim that tomospark can read "
                            + "(it is empty, or not a tomospark claim), and it has not changed for " + age / 1000 + " s; a "
                            + "run removes only claims it can show are a tomospark run's: if no run uses this output, "
                            + "remove " + file);
                String staleness = staleness(holder, age, staleAfter);
                if (staleness == null) {
                    throw new OutputBusyException(dir + ": the output is in use by another run (" + file.getName() + ": "
                            + holder.map(Holder::describe).orElse("being claimed") + "; last heartbeat " + age / 1000
                            + " s ago). Wait for it to finish; a claim left by a run that died on another host is taken over "
                            + "once its heartbeat is older than job.output.lockTimeout (" + staleAfter.toSeconds() + " s)");
                }
                LOG.warn("{}: taking over the claim of a run that is gone ({}): {}", dir, staleness,
                        holder.map(Holder::describe).orElse("unreadable lock file"));
                // delete only the claim that was judged stale; a new one made in between survives
                if (read(fs, file).equals(holder)) fs.delete(file, false);
            }
            throw new OutputBusyException(dir + ": could not claim the output: other runs keep claiming it (" + file + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    dir + ": output is not writable (cannot create its claim " + NAME + ": " + e.getMessage() + ")", e);
        }
    }

    /** Null when the holder may still be alive, else why its claim is stale. */
    static String staleness(Optional<Holder> holder, long ageMillis, Duration staleAfter) {
        if (ageMillis > staleAfter.toMillis()) return "no heartbeat for " + ageMillis / 1000 + " s";
        if (holder.isEmpty()) return null; // being written right now
        Holder h = holder.get();
        if (!h.host().equals(hostName()) || h.pid() <= 0) return null;
        Optional<ProcessHandle> p = ProcessHandle.of(h.pid());
        if (p.isEmpty() || !p.get().isAlive()) return "process " + h.pid() + " on this host has exited";
        Optional<String> start = startOf(p.get());
        if (start.isPresent() && !h.processStart().isEmpty() && !start.get().equals(h.processStart()))
            return "process " + h.pid() + " on this host has exited (its id now belongs to another process)";
        return null;
    }

    /** Throws when this claim was lost (taken over, or its file removed), so that the run stops committing. */
    public void ensureHeld() {
        String why = lost;
        if (why != null)
            throw new OutputBusyException(file.getParent() + ": this run lost its claim on the output (" + why
                    + "); another run may be writing there, so this one stops");
    }

    /** Whether the claim was lost (see {@link #ensureHeld}). */
    public boolean isLost() {
        return lost != null;
    }

    private void beat() {
        try {
            Optional<Holder> h = read(fs, file);
            if (h.isEmpty() || !h.get().owner().equals(owner)) {
                lost = h.isEmpty() ? NAME + " was removed" : NAME + " now names " + h.get().describe();
                LOG.error("{}: {}", file, lost);
                heartbeat.shutdown();
                return;
            }
            fs.setTimes(file, System.currentTimeMillis(), -1);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: heartbeat failed ({}); trying again", file, e.toString());
        }
    }

    /** Stops the heartbeat and removes the lock file if it is still this run's. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
        try {
            heartbeat.awaitTermination(10, TimeUnit.SECONDS);
            Optional<Holder> h = read(fs, file);
            if (h.isPresent() && h.get().owner().equals(owner)) fs.delete(file, false);
        } catch (IOException e) {
            LOG.warn("{}: cannot release the claim ({}); a later run takes it over once it is stale", file, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean createExclusive(FileSystem fs, Path file, byte[] content) throws IOException {
        File local = localFile(fs, file);
        if (local != null) {
            try {
                Files.write(local.toPath(), content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                return true;
            } catch (java.nio.file.FileAlreadyExistsException e) { // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's is imported
                return false;
            }
        }
        try (FSDataOutputStream out = fs.create(file, false)) {
            out.write(content);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            // some file systems report an existing file with a plain IOException
            if (fs.exists(file)) return false;
            throw e;
        }
    }

    /** The local file behind a path of the local file system, whose create can be exclusive; else null. */
    private static File localFile(FileSystem fs, Path p) {
        FileSystem f = fs instanceof LocalFileSystem l ? l.getRaw() : fs;
        return f instanceof RawLocalFileSystem r ? r.pathToFile(p) : null;
    }

    static Optional<Holder> read(FileSystem fs, Path file) throws IOException {
        byte[] b;
        try (FSDataInputStream in = fs.open(file)) {
            b = in.readAllBytes();
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
        try {
            Map<String, Object> m = Json.read(b, file.toString());
            // a claim names its owner, host and process; anything else is not one (or is being written)
            if (!(m.get("owner") instanceof String) || !(m.get("host") instanceof String) || !(m.get("pid") instanceof Number))
                return Optional.empty();
            return Optional.of(Holder.of(m));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // created but not yet written, or not a claim
        }
    }

    /** Milliseconds since the lock file's last heartbeat, or -1 when it is gone. */
    private static long ageMillis(FileSystem fs, Path file) throws IOException {
        try {
            return Math.max(0, System.currentTimeMillis() - fs.getFileStatus(file).getModificationTime());
        } catch (FileNotFoundException e) {
            return -1;
        }
    }

    private static Optional<String> startOf(ProcessHandle p) {
        return p.info().startInstant().map(Instant::toString);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("unknown-host");
        }
    }
}
