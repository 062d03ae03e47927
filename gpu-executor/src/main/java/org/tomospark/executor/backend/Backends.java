package org.tomospark.executor.backend;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.Suggest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Registry of backends, found with {@link ServiceLoader}. */
public final class Backends {
    private static final Logger LOG = LoggerFactory.getLogger(Backends.class);

    private Backends() {
    }

    /**
     * The installed backends, by {@link BackendProvider#autoPriority}. They do not change within a JVM (the classpath's
     * {@code META-INF/services}), so they are found once, on first use; providers hold no state of their own.
     */
    public static List<BackendProvider> providers() {
        return Installed.PROVIDERS;
    }

    /** Found on first use, not when Backends is loaded. */
    private static final class Installed {
        static final List<BackendProvider> PROVIDERS = load();

        private static List<BackendProvider> load() {
            List<BackendProvider> l = new ArrayList<>();
            ServiceLoader.load(BackendProvider.class, Backends.class.getClassLoader()).forEach(l::add);
            l.sort(Comparator.comparingInt(BackendProvider::autoPriority));
            return List.copyOf(l);
        }
    }

    /** Known ids and, for each, null if available or the reason it is not. */
    public static Map<String, String> availability() {
        Map<String, String> m = new TreeMap<>();
        for (BackendProvider p : providers()) m.put(p.id(), p.unavailableReason());
        return m;
    }

    /**
     * Whether a run asking for backend {@code id} may end up on the GPUs it is given: a backend that
     * {@linkplain BackendProvider#runsOnAssignedGpus runs on them}, or {@code auto} (also null or blank) where one is
     * installed. Decides what is started ahead of a run (the driver's probe, a context) and how its processors share a
     * GPU; nothing is resolved or loaded here (the providers are only listed).
     */
    public static boolean mayRunOnAssignedGpus(String id) {
        return !onAssignedGpus(id).isEmpty();
    }

    /**
     * The backend a run asking for {@code id} is planned onto before any task runs: {@code id} itself when named; for
     * {@code auto}, the first backend that runs on assigned GPUs where the run has GPUs, else the one {@code auto} takes
     * without GPUs (the first that {@linkplain BackendProvider#runsOnHostCpus runs on the host's cores} and
     * {@linkplain BackendProvider#eligibleForAuto may be chosen}).
     */
    public static BackendProvider planned(String id, boolean gpus) {
        String key = key(id);
        if (!key.equals("auto")) return of(key);
        for (BackendProvider p : providers())
            if (gpus ? p.runsOnAssignedGpus() : p.runsOnHostCpus() && p.eligibleForAuto()) return p;
        throw new IllegalStateException("backend auto: no installed backend runs " + (gpus ? "on the GPUs given" : "without a GPU")
                + " (installed: " + availability().keySet() + ")");
    }

    /** The backends a run asking for {@code id} may run with on the GPUs it is given (for auto, every such one). */
    public static List<BackendProvider> onAssignedGpus(String id) {
        String key = key(id);
        List<BackendProvider> l = new ArrayList<>();
        for (BackendProvider p : providers())
            if (p.runsOnAssignedGpus() && (key.equals("auto") || p.id().equals(key))) l.add(p);
        return l;
    }

    /**
     * {@code id} as the {@code backend} key takes it (trimmed, lower case; blank is auto) where it is {@code auto} or an
     * installed backend's id.
     *
     * @throws IllegalArgumentException naming the installed backends (and the nearest id) otherwise
     */
    public static String installedId(String id) {
        String key = key(id);
        if (key.equals("auto")) return key;
        for (BackendProvider p : providers()) if (p.id().equals(key)) return key;
        throw unknown(id.trim());
    }

    /** The error for an id no installed backend has: the installed ones, and the nearest. */
    private static IllegalArgumentException unknown(String id) {
        List<String> ids = new ArrayList<>();
        for (BackendProvider p : providers()) ids.add(p.id());
        return new IllegalArgumentException("unknown backend '" + id + "': expected auto or an installed backend: "
                + String.join(", ", ids) + Suggest.hint(id.toLowerCase(Locale.ROOT), ids));
    }

    /** Every installed backend's settings ({@link BackendProvider#keys}), in the order of the backends' priority. */
    public static List<ConfigKey<?>> keys() {
        return providers().stream().flatMap(p -> p.keys().stream()).toList();
    }

    /**
     * The id of the backend {@code auto} takes where a task has no GPU ({@link #planned}{@code ("auto", false)}): where
     * the methods that only run on the host's cores (gridrec) run, and the reference.
     */
    public static String onHostCpus() {
        return planned("auto", false).id();
    }

    private static String key(String id) {
        return id == null || id.isBlank() ? "auto" : id.trim().toLowerCase(Locale.ROOT);
    }

    /**
     * Resolves a backend id. {@code auto} picks the first eligible provider by priority (GPUs first) and
     * logs why it fell back; a named backend that cannot run here is an error, never a silent fallback.
     */
    public static BackendProvider resolve(String id) {
        String key = id == null ? "auto" : id.trim().toLowerCase(Locale.ROOT);
        List<BackendProvider> all = providers();
        if (key.equals("auto")) {
            StringBuilder why = new StringBuilder();
            for (BackendProvider p : all) {
                if (p.eligibleForAuto()) {
                    // falling back is what auto is for: the reasons are worth a line, not a warning
                    if (why.length() > 0) LOG.info("backend auto: using {} ({})", p.id(), why);
                    else LOG.info("backend auto: using {}", p.id());
                    return p;
                }
                String r = p.unavailableReason();
                if (why.length() > 0) why.append("; ");
                why.append(p.id()).append(" not used: ").append(r == null ? "not eligible for auto" : r);
            }
            throw new BackendUnavailableException("backend auto: no backend can run here (" + why + ")");
        }
        for (BackendProvider p : all) {
            if (p.id().equals(key)) {
                String r = p.unavailableReason();
                if (r != null) throw new BackendUnavailableException("backend '" + key + "' was requested but cannot run here: " + r);
                return p;
            }
        }
        List<String> ids = new ArrayList<>();
        for (BackendProvider p : all) ids.add(p.id());
        throw new IllegalArgumentException("unknown backend '" + id + "': expected auto or one of " + ids);
    }

    /**
     * The options that decide the bytes of a backend's output ({@link BackendProvider#outputDefining}); for
     * {@code auto}, or an id unknown here, the default rule.
     */
    public static BackendOptions outputDefining(String id, BackendOptions o) {
        String key = id == null ? "auto" : id.trim().toLowerCase(Locale.ROOT);
        List<BackendProvider> all = providers();
        for (BackendProvider p : all) {
            if (!p.id().equals(key)) continue;
            // another backend's settings cannot change this one's bytes
            BackendOptions own = o;
            for (String x : o.extra().keySet()) if (!x.startsWith(p.id() + ".")) own = own.withoutExtra(x);
            return p.outputDefining(own);
        }
        BackendOptions d = o.withThreads(0).withDevice("");
        for (BackendProvider p : all) for (ConfigKey<?> k : p.settingsThatKeepBytes()) d = d.withoutExtra(k.name());
        return d;
    }

    /** The slice groups backend {@code id} runs best with ({@link BackendProvider#groupShape}); the default rule for auto. */
    public static GroupShape groupShape(String id, BackendOptions o) {
        String key = id == null ? "auto" : id.trim().toLowerCase(Locale.ROOT);
        for (BackendProvider p : providers()) if (p.id().equals(key)) return p.groupShape(o);
        int k = o.slicesPerPass() == 0 ? 1 : o.slicesPerPass();
        return new GroupShape(k, o.slicesPerPass() == 0 ? 16 : k);
    }

    /**
     * Every backend's {@link BackendProvider#releaseBeforeExit}, for a command-line process about to exit; a failure is
     * logged and the others still run (the command's outcome is already decided).
     */
    public static void releaseBeforeExit() {
        for (BackendProvider p : providers()) {
            try {
                p.releaseBeforeExit();
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("backend {}: could not give its device resources back before the exit: {}", p.id(), e.toString());
            }
        }
    }

    /**
     * The provider of an open backend's id ({@link BackprojectionBackend#id}), whether or not it could be resolved now.
     *
     * @throws IllegalArgumentException for an id no provider has
     */
    public static BackendProvider of(String id) {
        for (BackendProvider p : providers()) if (p.id().equals(id)) return p;
        throw unknown(id);
    }

    /** Whether {@code id} is an installed backend that runs on the host's cores alone; false for auto or an unknown id. */
    public static boolean runsOnHostCpus(String id) {
        for (BackendProvider p : providers()) if (p.id().equals(id)) return p.runsOnHostCpus();
        return false;
    }

    /**
     * The provider of {@code id} where it offers {@code op}.
     *
     * @param why what asks for the operation, in config keys (e.g. "geometry=cone")
     * @throws IllegalArgumentException naming the backend key and what asked, where it does not
     */
    public static BackendProvider offering(String id, Operation op, String why) {
        return offering(of(id), op, why);
    }

    /** {@code p} where it offers {@code op}; else the refusal of {@link #offering(String, Operation, String)}. */
    static BackendProvider offering(BackendProvider p, Operation op, String why) {
        if (!p.operations().contains(op))
            throw new IllegalArgumentException("config key backend=" + p.id() + " cannot run " + why + ": " + missing(p, op));
        return p;
    }

    /** A backend's lack of an operation, in words: which it offers instead. */
    static String missing(BackendProvider p, Operation op) {
        List<String> offered = new ArrayList<>();
        for (Operation o : p.operations()) offered.add(o.words());
        return "backend " + p.id() + " does not offer " + op.words() + " (it offers " + String.join(", ", offered) + ")";
    }

    /** Resolves, creates and sets up a backend. */
    public static BackprojectionBackend open(String id, BackendOptions options) {
        BackprojectionBackend b = resolve(id).create();
        try {
            b.setup(options);
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }
}
