package org.tomospark.job.fs;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The entries of a folder with what each is, a link not followed: through java.nio on a local disk (Hadoop's local file
 * system would start a process to read each link where its native library is missing, and cannot make a path of a name
 * with a colon), through the file system's own listing elsewhere.
 */
public final class FolderEntries {
    /** What an entry is, its link not followed. */
    public enum Kind { FILE, FOLDER, LINK, OTHER }

    public record Entry(String name, Path path, Kind kind) {
    }

    private FolderEntries() {
    }

    /** The folder's entries; empty when it does not exist. */
    public static List<Entry> of(FileSystem fs, Path dir) throws IOException {
        List<Entry> out = new ArrayList<>();
        RawLocalFileSystem local = RealPaths.rawLocal(fs);
        if (local != null) {
            try (var ds = Files.newDirectoryStream(local.pathToFile(dir).toPath())) {
                for (var p : ds) {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    Kind k = a.isSymbolicLink() ? Kind.LINK : a.isDirectory() ? Kind.FOLDER : a.isRegularFile() ? Kind.FILE : Kind.OTHER;
                    String name = p.getFileName().toString();
                    out.add(new Entry(name, child(dir, name), k));
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                return out;
            }
            return out;
        }
        FileStatus[] all;
        try {
            all = fs.listStatus(dir);
        } catch (FileNotFoundException e) {
            return out;
        }
        for (FileStatus s : all) {
            Kind k = s.isSymlink() ? Kind.LINK : s.isDirectory() ? Kind.FOLDER : s.isFile() ? Kind.FILE : Kind.OTHER;
            out.add(new Entry(s.getPath().getName(), s.getPath(), k));
        }
        return out;
    }

    /**
     * The paths a glob matches ({@code *}, {@code ?}, {@code [...]}, <code>{a,b}</code> within a name), in name order: on a
     * local disk matched here component by component with java.nio's glob (Hadoop's local listing cannot make a path of a
     * name with a colon), elsewhere by the file system's own {@link FileSystem#globStatus}. Empty when nothing matches.
     */
    public static List<Path> glob(FileSystem fs, Path pattern) throws IOException {
        RawLocalFileSystem local = RealPaths.rawLocal(fs);
        List<Path> out = new ArrayList<>();
        if (local == null) {
            FileStatus[] st = fs.globStatus(pattern);
            if (st != null) for (FileStatus s : st) out.add(s.getPath());
            return out;
        }
        var abs = local.pathToFile(fs.makeQualified(pattern)).toPath().toAbsolutePath();
        List<java.nio.file.Path> current = List.of(abs.getRoot()); // CHECKSTYLE.ALLOW InlineQualifiedName: both Paths meet here
        for (var component : abs) {
            String c = component.toString();
            List<java.nio.file.Path> next = new ArrayList<>(); // CHECKSTYLE.ALLOW InlineQualifiedName: both Paths meet here
            if (c.chars().noneMatch(ch -> ch == '*' || ch == '?' || ch == '[' || ch == '{')) {
                for (var d : current) next.add(d.resolve(c));
            } else {
                PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + c);
                for (var d : current) {
                    if (!Files.isDirectory(d)) continue;
                    try (var ds = Files.newDirectoryStream(d)) {
                        for (var e : ds) if (m.matches(e.getFileName())) next.add(e);
                    }
                }
            }
            current = next;
        }
        List<String> names = new ArrayList<>();
        for (var p : current) if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) names.add(p.toString());
        names.sort(null);
        for (String n : names) out.add(new Path("file", null, n));
        return out;
    }

    /** The entry for {@code name} in {@code dir}: a name with any character, never parsed as a URI. */
    static Path child(Path dir, String name) {
        return new Path(dir, new Path(null, null, name));
    }

    /** What one path is, its link not followed; null when nothing is there. */
    public static Kind kind(FileSystem fs, Path p) throws IOException {
        RawLocalFileSystem local = RealPaths.rawLocal(fs);
        if (local != null) {
            try {
                BasicFileAttributes a = Files.readAttributes(local.pathToFile(p).toPath(), BasicFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                return a.isSymbolicLink() ? Kind.LINK : a.isDirectory() ? Kind.FOLDER : a.isRegularFile() ? Kind.FILE : Kind.OTHER;
            } catch (NoSuchFileException e) {
                return null;
            }
        }
        try {
            FileStatus s = fs.getFileStatus(p);
            return s.isSymlink() ? Kind.LINK : s.isDirectory() ? Kind.FOLDER : s.isFile() ? Kind.FILE : Kind.OTHER;
        } catch (FileNotFoundException e) {
            return null;
        }
    }
}
