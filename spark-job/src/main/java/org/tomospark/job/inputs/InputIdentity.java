package org.tomospark.job.inputs;

import org.tomospark.job.fs.Json;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Identifies an input for the manifest and for --resume: every file's path, length and modification time
 * (a TIFF stack lists each file). Cheap: file status only, no reading.
 */
public final class InputIdentity {
    private InputIdentity() {
    }

    public static Map<String, Object> of(String uri, String format, InputOptions o, Configuration conf) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uri", uri);
        m.put("format", format);
        List<Map<String, Object>> files = new ArrayList<>();
        for (FileStatus s : statuses(uri, format, o, conf)) files.add(file(s));
        m.put("files", files.size() > 16 ? summary(files) : files);
        m.put("fingerprint", Json.sha256(Json.write(files)));
        return m;
    }

    /** Every file the input is read from: the scan, a raw scan's flats, darks and angles, a TIFF stack's images. */
    public static List<Path> files(String uri, String format, InputOptions o, Configuration conf) {
        List<Path> l = new ArrayList<>();
        for (FileStatus s : statuses(uri, format, o, conf)) l.add(s.getPath());
        return l;
    }

    private static List<FileStatus> statuses(String uri, String format, InputOptions o, Configuration conf) {
        List<FileStatus> files = new ArrayList<>();
        try {
            Path p = Inputs.path(uri);
            FileSystem fs = p.getFileSystem(conf);
            if (format.equals("tiff")) {
                for (String g : new String[]{o.tiffProjections(), o.tiffFlats(), o.tiffDarks(), o.tiffTheta()}) {
                    if (g.isBlank()) continue;
                    FileStatus[] st = fs.globStatus(new Path(p, g));
                    if (st == null) continue;
                    Arrays.sort(st, (a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
                    files.addAll(Arrays.asList(st));
                }
            } else {
                files.add(fs.getFileStatus(p));
                if (format.equals("raw"))
                    for (String extra : new String[]{o.rawFlats(), o.rawDarks(), o.rawTheta()})
                        if (!extra.isBlank()) {
                            Path e = Inputs.path(extra);
                            files.add(e.getFileSystem(conf).getFileStatus(e));
                        }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": cannot stat input", e);
        }
        return files;
    }

    private static Map<String, Object> file(FileStatus s) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("path", s.getPath().toString());
        f.put("length", s.getLen());
        f.put("modificationTime", s.getModificationTime());
        return f;
    }

    private static Map<String, Object> summary(List<Map<String, Object>> files) {
        long bytes = 0, newest = 0;
        for (Map<String, Object> f : files) {
            bytes += (Long) f.get("length");
            newest = Math.max(newest, (Long) f.get("modificationTime"));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", files.size());
        m.put("first", files.get(0).get("path"));
        m.put("last", files.get(files.size() - 1).get("path"));
        m.put("totalLength", bytes);
        m.put("newestModificationTime", newest);
        return m;
    }
}
