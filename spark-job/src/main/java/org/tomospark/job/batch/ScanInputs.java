package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
 * glob ({@code *?[{}) gives every path it matches, {@code @FILE} gives the lines of a list file (one scan each, blank
 * lines and {@code #} comments skipped), and anything else is one scan. A scan named twice is taken once; two scans
 * that would share an output folder are an error naming both.
 */
public final class ScanInputs {
    private final Configuration conf;
    private final Set<String> extensions;
    private final Consumer<String> warn;

    public ScanInputs(Configuration conf, String extensions, Consumer<String> warn) {
        this.conf = conf;
        this.extensions = new TreeSet<>();
        for (String e : extensions.toLowerCase(Locale.ROOT).split(","))
            if (!e.isBlank()) this.extensions.add(e.strip());
        this.warn = warn;
    }

    /** The batch key's form: arguments separated by ';'. */
    public static List<String> split(String inputs) {
        List<String> l = new ArrayList<>();
        for (String s : inputs.split(";")) if (!s.isBlank()) l.add(s.trim());
        return l;
    }

    /** Every scan the arguments name, in the order given (a folder's and a glob's in name order). */
    public List<ScanInput> expand(List<String> args) {
        if (args.isEmpty())
            throw new IllegalArgumentException("batch.inputs: no inputs given (folders, globs or @list files)");
        Map<String, ScanInput> byUri = new LinkedHashMap<>();
        Map<String, ScanInput> byName = new LinkedHashMap<>();
        for (String arg : args) {
            for (ScanInput s : expand(arg)) {
                if (byUri.containsKey(s.uri())) continue;
                ScanInput other = byName.putIfAbsent(s.name(), s);
                if (other != null)
                    throw new IllegalArgumentException(s.uri() + " and " + other.uri() + " would both be written to "
                            + "the output folder '" + s.name() + "' (named by the file name without its extension); "
                            + "reprocess them in separate batches with separate output roots");
                byUri.put(s.uri(), s);
            }
        }
        if (byUri.isEmpty())
            throw new IllegalArgumentException("batch.inputs: no scans found in " + String.join(", ", args));
        return new ArrayList<>(byUri.values());
    }

    private List<ScanInput> expand(String arg) {
        try {
            if (arg.startsWith("@")) return listFile(arg.substring(1));
            Path p = new Path(arg);
            FileSystem fs = p.getFileSystem(conf);
            if (isGlob(arg)) {
                FileStatus[] matches = fs.globStatus(p);
                if (matches == null || matches.length == 0) {
                    warn.accept(arg + ": the glob matches no file");
                    return List.of();
                }
                return scans(matches, false);
            }
            FileStatus st;
            try {
                st = fs.getFileStatus(p);
            } catch (FileNotFoundException e) {
                throw new IllegalArgumentException(arg + ": input not found");
            }
            if (st.isDirectory() && !looksLikeScanFolder(fs, p)) return scans(fs.listStatus(p), true);
            return List.of(ScanInput.of(arg, p.getName()));
        } catch (IOException e) {
            throw new UncheckedIOException(arg + ": cannot list the input (" + e.getMessage() + ")", e);
        }
    }

    /** A TIFF stack is a folder too: one that holds no file of the scan extensions but TIFF projections is one scan. */
    private boolean looksLikeScanFolder(FileSystem fs, Path dir) throws IOException {
        boolean tiffs = false;
        for (FileStatus s : fs.listStatus(dir)) {
            String n = s.getPath().getName().toLowerCase(Locale.ROOT);
            if (s.isFile() && extensions.contains(extension(n))) return false;
            if (n.endsWith(".tif") || n.endsWith(".tiff")) tiffs = true;
        }
        return tiffs;
    }

    private List<ScanInput> scans(FileStatus[] statuses, boolean byExtension) {
        List<FileStatus> l = new ArrayList<>(Arrays.asList(statuses));
        l.sort(Comparator.comparing(s -> s.getPath().toString()));
        List<ScanInput> out = new ArrayList<>();
        for (FileStatus s : l) {
            String n = s.getPath().getName();
            if (byExtension && (!s.isFile() || n.startsWith(".") || n.startsWith("_")
                    || !extensions.contains(extension(n.toLowerCase(Locale.ROOT))))) continue;
            out.add(ScanInput.of(uriOf(s.getPath()), n));
        }
        return out;
    }

    /** A local path without its file: scheme (as a user would write it), any other URI as it is. */
    private static String uriOf(Path p) {
        String s = p.toUri().getScheme();
        return "file".equals(s) ? p.toUri().getPath() : p.toString();
    }

    private List<ScanInput> listFile(String list) throws IOException {
        Path p = new Path(list);
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
                out.add(ScanInput.of(t, new Path(t).getName()));
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
