package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.job.fs.UserPaths;
import org.tomospark.job.fs.FolderEntries;
import org.tomospark.job.fs.Json;
import org.tomospark.job.fs.RealPaths;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Expands a batch's input arguments into its scans, through the Hadoop file system of each: a folder gives its files
 * named {@code *.EXT} (the extensions of {@code batch.extensions}; names beginning with '.' or '_' are not scans), a
 * glob ({@code *?[{}) gives every path it matches (a path that exists as written is taken as it is, whatever characters
 * it holds), {@code @FILE} gives the lines of a list file (one path per line, taken whole with its spaces; blank lines
 * and lines beginning with {@code #} skipped), and anything else is one scan. A scan named twice is taken once; two
 * scans that would share an output folder are an error naming both. Nothing under the batch's output root is a scan:
 * a folder or glob that reaches into it leaves out what lies there (its outputs), with a warning.
 */
public final class ScanInputs {
    private final Configuration conf;
    private final Set<String> extensions;
    private final Consumer<String> warn;
    private final Path outputRoot;

    public ScanInputs(Configuration conf, String extensions, Consumer<String> warn) {
        this(conf, extensions, warn, null);
    }

    /** @param outputRoot the batch's output root, whose contents are never scans; null for none */
    public ScanInputs(Configuration conf, String extensions, Consumer<String> warn, String outputRoot) {
        this.conf = conf;
        this.outputRoot = outputRoot == null ? null : RealPaths.of(outputRoot, conf);
        this.extensions = new TreeSet<>();
        for (String e : extensions.toLowerCase(Locale.ROOT).split(","))
            if (!e.isBlank()) this.extensions.add(e.strip());
        this.warn = warn;
    }

    /**
     * The batch key's forms: a JSON array of strings, as the command line and the notebook API write it ({@link #join},
     * any character kept), or arguments separated by ';' (a config file's short form).
     */
    public static List<String> split(String inputs) {
        String t = inputs.strip();
        if (t.startsWith("[")) {
            Object o = Json.read(("{\"inputs\":" + t + "}").getBytes(StandardCharsets.UTF_8), "batch.inputs").get("inputs");
            List<String> l = new ArrayList<>();
            if (!(o instanceof List<?> list)) throw new IllegalArgumentException("batch.inputs: not a list of paths: " + t);
            for (Object e : list) {
                if (!(e instanceof String str)) throw new IllegalArgumentException("batch.inputs: not a path: " + e);
                if (!str.isEmpty()) l.add(str);
            }
            return l;
        }
        List<String> l = new ArrayList<>();
        for (String s : inputs.split(";")) if (!s.isBlank()) l.add(s.trim());
        return l;
    }

    /** The batch key's value for these arguments: a JSON array, so that no character of a path is lost. */
    public static String join(List<String> inputs) {
        return new String(Json.write(inputs), StandardCharsets.UTF_8);
    }

    /** Every scan the arguments name, in the order given (a folder's and a glob's in name order). */
    public List<ScanInput> expand(List<String> args) {
        if (args.isEmpty())
            throw new IllegalArgumentException("batch.inputs: no inputs given (folders, globs or @list files)");
        Map<String, ScanInput> byUri = new LinkedHashMap<>();
        Map<String, ScanInput> byName = new LinkedHashMap<>();
        int underRoot = 0;
        for (String arg : args) {
            for (ScanInput s : expand(arg)) {
                if (byUri.containsKey(s.uri())) continue;
                if (underOutputRoot(s)) {
                    underRoot++;
                    continue;
                }
                ScanInput other = byName.putIfAbsent(s.name(), s);
                if (other != null)
                    throw new IllegalArgumentException(s.uri() + " and " + other.uri() + " would both be written to "
                            + "the output folder '" + s.name() + "' (named by the file name without its extension); "
                            + "reprocess them in separate batches with separate output roots");
                byUri.put(s.uri(), s);
            }
        }
        if (byUri.isEmpty())
            throw new IllegalArgumentException("batch.inputs: no scans found in " + String.join(", ", args) + (underRoot == 0
                    ? "" : " (" + underRoot + " lie under the output root " + RealPaths.show(outputRoot) + ", where the batch writes its "
                    + "outputs, and are not taken as scans: keep the scans outside the output root)"));
        return new ArrayList<>(byUri.values());
    }

    /** Whether the scan lies under the output root (links followed), where the batch's outputs are: then it is left out. */
    private boolean underOutputRoot(ScanInput s) {
        if (outputRoot == null) return false;
        Path real = RealPaths.of(UserPaths.path(s.uri(), s.uri()), conf);
        if (!RealPaths.within(real, outputRoot)) return false;
        warn.accept(s.uri() + ": lies under the output root " + RealPaths.show(outputRoot) + ", where the batch writes its outputs; "
                + "not taken as a scan");
        return true;
    }

    private List<ScanInput> expand(String arg) {
        try {
            if (arg.startsWith("@") && !literalExists(arg)) return listFile(arg.substring(1));
            Path p = UserPaths.path(arg, arg);
            FileSystem fs = p.getFileSystem(conf);
            if (isGlob(arg) && !fs.exists(p)) {
                List<Path> matches = FolderEntries.glob(fs, p);
                if (matches.isEmpty()) {
                    warn.accept(arg + ": the glob matches no file");
                    return List.of();
                }
                return scans(fs, matches, false);
            }
            FileStatus st;
            try {
                st = fs.getFileStatus(p);
            } catch (FileNotFoundException e) {
                throw new IllegalArgumentException(arg + ": input not found");
            }
            if (st.isDirectory() && !looksLikeScanFolder(fs, p)) {
                List<Path> children = new ArrayList<>();
                for (FolderEntries.Entry e : FolderEntries.of(fs, p)) children.add(e.path());
                return scans(fs, children, true);
            }
            return List.of(ScanInput.of(arg, p.getName()));
        } catch (IOException e) {
            throw new UncheckedIOException(arg + ": cannot list the input (" + e.getMessage() + ")", e);
        }
    }

    /** A TIFF stack is a folder too: one that holds no file of the scan extensions but TIFF projections is one scan. */
    private boolean looksLikeScanFolder(FileSystem fs, Path dir) throws IOException {
        boolean tiffs = false;
        for (FolderEntries.Entry e : FolderEntries.of(fs, dir)) {
            String n = e.name().toLowerCase(Locale.ROOT);
            if (extensions.contains(extension(n)) && isFile(fs, e.path())) return false;
            if (n.endsWith(".tif") || n.endsWith(".tiff")) tiffs = true;
        }
        return tiffs;
    }

    private List<ScanInput> scans(FileSystem fs, List<Path> paths, boolean byExtension) throws IOException {
        List<Path> l = new ArrayList<>(paths);
        l.sort(Comparator.comparing(Path::toString));
        List<ScanInput> out = new ArrayList<>();
        for (Path p : l) {
            String n = p.getName();
            if (byExtension && (n.startsWith(".") || n.startsWith("_") || !extensions.contains(extension(n.toLowerCase(Locale.ROOT)))
                    || !isFile(fs, p))) continue;
            out.add(ScanInput.of(uriOf(p), n));
        }
        return out;
    }

    /** Whether a path is a file, or a link to one. */
    private static boolean isFile(FileSystem fs, Path p) throws IOException {
        try {
            return fs.getFileStatus(p).isFile();
        } catch (FileNotFoundException e) {
            return false; // a link that leads nowhere
        }
    }

    /** A local path without its file: scheme (as a user would write it), any other URI as it is. */
    private static String uriOf(Path p) {
        String s = p.toUri().getScheme();
        return "file".equals(s) ? p.toUri().getPath() : p.toString();
    }

    /** Whether a path exists as written (a file named '@x' or 'a[1].h5' is that file, not a list or a glob). */
    private boolean literalExists(String arg) {
        try {
            Path p = UserPaths.path(arg, arg);
            return p.getFileSystem(conf).exists(p);
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    private List<ScanInput> listFile(String list) throws IOException {
        Path p = UserPaths.path(list, "list file @" + list);
        FileSystem fs = p.getFileSystem(conf);
        List<ScanInput> out = new ArrayList<>();
        FSDataInputStream in;
        try {
            in = fs.open(p);
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(list + ": list file not found");
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) continue;
                // the path is the line as it is: spaces, '%', ':' and any other character are part of it
                Path scan = UserPaths.path(line, "list file " + list);
                out.add(ScanInput.of(line, scan.getName()));
            }
        }
        return out;
    }

    static boolean isGlob(String arg) {
        return arg.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1);
    }
}
