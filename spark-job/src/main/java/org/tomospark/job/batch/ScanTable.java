package org.tomospark.job.batch;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.ConfigRegistry;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.JobKeys;
import org.tomospark.job.WorkflowSettings;
import org.tomospark.job.fs.Json;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Per-scan parameters that override a batch's: for each scan (by file name or full path) config keys and values.
 * Read from CSV (header {@code file,KEY,...}), from JSON ({@code {"FILE": {"KEY": VALUE}}} or {@code {"FILE": CENTRE}})
 * or from tomopy-cli's {@code rotation_axis.json} ({@code {"0": {"FILE": CENTRE}, "1": ...}}); a JSON row's
 * {@code scores} and {@code error} (what {@code find-centers} writes beside the centre) are not settings. Every key and
 * value is checked when the table is read, with an error naming the table, the scan and the key.
 */
public final class ScanTable {
    /** Keys a table may not set: they are the batch's, not a scan's. */
    private static final Set<String> BATCH_ONLY = Set.of(JobKeys.INPUT.name(), JobKeys.OUTPUT.name(),
            JobKeys.OVERWRITE.name(), JobKeys.RESUME.name(), JobKeys.ENGINE.name(), CoreKeys.CENTER_SWEEP.name());

    /** Fields of a JSON row that are no settings: what find-centers writes beside the centre. */
    private static final Set<String> COMMENTARY = Set.of("scores", "error");

    private final String source;
    private final Map<String, Map<String, String>> rows;

    private ScanTable(String source, Map<String, Map<String, String>> rows) {
        this.source = source;
        this.rows = rows;
    }

    public static ScanTable empty() {
        return new ScanTable("", Map.of());
    }

    /** Reads a table from any Hadoop file system; JSON when the file begins with '{', CSV otherwise. */
    public static ScanTable read(String uri, Configuration conf) {
        Path p = new Path(uri);
        byte[] bytes;
        try (FSDataInputStream in = p.getFileSystem(conf).open(p)) {
            bytes = in.readAllBytes();
        } catch (FileNotFoundException e) {
            throw bad(uri, "table not found");
        } catch (IOException e) {
            throw new UncheckedIOException("batch.table " + uri + ": cannot read the table (" + e.getMessage() + ")",
                    e);
        }
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.startsWith("{")) return json(uri, Json.read(bytes, "batch.table " + uri));
        return csv(uri, new StringReader(text));
    }

    static ScanTable json(String source, Map<String, Object> m) {
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        if (tomopyForm(m)) {
            for (Object v : m.values())
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet())
                    put(source, rows, String.valueOf(e.getKey()),
                            Map.of(CoreKeys.CENTER.name(), String.valueOf(e.getValue())));
            return new ScanTable(source, rows);
        }
        for (Map.Entry<String, Object> e : m.entrySet()) {
            Map<String, String> kv = new LinkedHashMap<>();
            if (e.getValue() instanceof Map<?, ?> keys) {
                for (Map.Entry<?, ?> k : keys.entrySet())
                    if (!COMMENTARY.contains(String.valueOf(k.getKey())))
                        kv.put(String.valueOf(k.getKey()), String.valueOf(k.getValue()));
            } else if (e.getValue() instanceof Number || e.getValue() instanceof String) {
                kv.put(CoreKeys.CENTER.name(), String.valueOf(e.getValue()));
            } else {
                throw bad(source, "entry '" + e.getKey() + "' must be a centre or an "
                        + "object of config keys, got " + e.getValue());
            }
            put(source, rows, e.getKey(), kv);
        }
        return new ScanTable(source, rows);
    }

    /** tomopy-cli's rotation_axis.json: every key a number, every value one file name with its centre. */
    private static boolean tomopyForm(Map<String, Object> m) {
        if (m.isEmpty()) return false;
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (!e.getKey().matches("\\d+") || !(e.getValue() instanceof Map<?, ?> inner) || inner.size() != 1)
                return false;
            if (!(inner.values().iterator().next() instanceof Number)) return false;
        }
        return true;
    }

    static ScanTable csv(String source, Reader text) {
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setTrim(true)
                .setIgnoreEmptyLines(true).setCommentMarker('#').get();
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        try (CSVParser p = CSVParser.builder().setReader(text).setFormat(format).get()) {
            List<String> header = p.getHeaderNames();
            if (header.isEmpty() || !header.get(0).equals("file"))
                throw bad(source, "the first column must be 'file' (then config keys), "
                        + "got " + header);
            for (CSVRecord r : p) {
                if (!r.isConsistent())
                    throw bad(source, "line " + r.getParser().getCurrentLineNumber()
                            + " has " + r.size() + " fields, the header " + header.size());
                Map<String, String> kv = new LinkedHashMap<>();
                for (int i = 1; i < header.size(); i++) if (!r.get(i).isEmpty()) kv.put(header.get(i), r.get(i));
                put(source, rows, r.get(0), kv);
            }
        } catch (IOException e) {
            throw bad(source, "not a readable CSV table (" + e.getMessage() + ")", e);
        } catch (IllegalStateException e) {
            throw bad(source, e.getMessage(), e);
        }
        return new ScanTable(source, rows);
    }

    private static void put(String source, Map<String, Map<String, String>> rows, String file, Map<String, String> kv) {
        if (file.isBlank()) throw bad(source, "an entry without a file name");
        Settings s = Settings.empty();
        for (Map.Entry<String, String> e : kv.entrySet()) {
            ConfigKey<?> key = ConfigRegistry.find(e.getKey());
            String where = "batch.table " + source + ", " + file + ": ";
            if (key == null || BATCH_ONLY.contains(e.getKey()) || e.getKey().startsWith("batch."))
                throw new IllegalArgumentException(where + (key == null
                        ? ConfigRegistry.unknown(e.getKey())
                        : "config key " + e.getKey() + " is the batch's, not a scan's"));
            try {
                s = WorkflowSettings.set(s, key, e.getValue());
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(where + bad.getMessage(), bad);
            }
        }
        if (rows.put(file, Map.copyOf(s.asMap())) != null)
            throw bad(source, "file '" + file + "' is listed twice");
    }

    /** An error about the table {@code source}, naming it. */
    private static IllegalArgumentException bad(String source, String message) {
        return new IllegalArgumentException("batch.table " + source + ": " + message);
    }

    private static IllegalArgumentException bad(String source, String message, Exception cause) {
        return new IllegalArgumentException("batch.table " + source + ": " + message, cause);
    }

    /** The table's overrides for a scan (by full URI, else by file name); empty when it names none. */
    public Map<String, String> overrides(ScanInput scan) {
        Map<String, String> m = rows.get(scan.uri());
        if (m == null) m = rows.get(scan.fileName());
        return m == null ? Map.of() : m;
    }

    /** The scan's settings: the batch's, then the table's for this scan. */
    public Settings apply(Settings batch, ScanInput scan) {
        Settings s = batch;
        for (Map.Entry<String, String> e : overrides(scan).entrySet()) s = s.with(e.getKey(), e.getValue());
        return s;
    }

    /** Entries of the table that name none of these scans (a typo, or a scan no longer there). */
    public List<String> unmatched(List<ScanInput> scans) {
        Set<String> names = new TreeSet<>();
        for (ScanInput s : scans) {
            names.add(s.uri());
            names.add(s.fileName());
        }
        List<String> l = new ArrayList<>();
        for (String f : rows.keySet()) if (!names.contains(f)) l.add(f);
        return l;
    }

    public String source() {
        return source;
    }

    public int size() {
        return rows.size();
    }
}
