package org.tomospark.job.fs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Where a path really is: every symbolic link on the way followed, a dangling one to where it points, so that two paths
 * that name the same file compare equal and a path reached through a link is judged by its destination. On a local
 * file system each component is resolved through java.nio; on any other the deepest existing ancestor is resolved by
 * the file system ({@link FileSystem#resolvePath}, which follows HDFS's links) and the rest appended.
 */
public final class RealPaths {
    private RealPaths() {
    }

    /** The real location of {@code p}, fully qualified; {@code p} need not exist. */
    public static Path of(Path p, Configuration conf) {
        try {
            FileSystem fs = p.getFileSystem(conf);
            RawLocalFileSystem local = rawLocal(fs);
            if (local != null) {
                var real = LocalRealPath.resolve(local.pathToFile(fs.makeQualified(p)).toPath().toAbsolutePath());
                return new Path("file", null, real.toString());
            }
            return remote(fs, fs.makeQualified(p));
        } catch (IOException e) {
            throw new UncheckedIOException(p + ": cannot resolve the path (" + e.getMessage() + ")", e);
        }
    }

    /** The real location of a user's path or URI. */
    public static Path of(String uri, Configuration conf) {
        return of(UserPaths.path(uri, uri), conf);
    }

    /** A path as a user writes it: a local file's path without its scheme, any other URI whole. */
    public static String show(Path p) {
        return "file".equals(p.toUri().getScheme()) ? p.toUri().getPath() : p.toString();
    }

    /** Whether {@code inner} is {@code outer} itself or lies under it; both real locations ({@link #of}). */
    public static boolean within(Path inner, Path outer) {
        if (!sameFileSystem(inner, outer)) return false;
        String i = inner.toUri().getPath(), o = outer.toUri().getPath();
        if (o.length() > 1 && o.endsWith("/")) o = o.substring(0, o.length() - 1);
        return i.equals(o) || i.startsWith(o.equals("/") ? "/" : o + "/");
    }

    /** Whether {@code inner} lies strictly under {@code outer}. */
    public static boolean strictlyWithin(Path inner, Path outer) {
        return within(inner, outer) && !within(outer, inner);
    }

    private static boolean sameFileSystem(Path a, Path b) {
        String sa = a.toUri().getScheme(), sb = b.toUri().getScheme();
        String aa = a.toUri().getAuthority(), ab = b.toUri().getAuthority();
        return String.valueOf(sa).equals(String.valueOf(sb)) && String.valueOf(aa).equals(String.valueOf(ab));
    }

    static RawLocalFileSystem rawLocal(FileSystem fs) {
        FileSystem f = fs instanceof LocalFileSystem l ? l.getRaw() : fs;
        return f instanceof RawLocalFileSystem r ? r : null;
    }

    /** The deepest existing ancestor resolved by the file system, the rest appended. */
    private static Path remote(FileSystem fs, Path p) throws IOException {
        Path existing = p;
        StringBuilder rest = new StringBuilder();
        while (existing != null) {
            try {
                Path real = fs.resolvePath(existing);
                return rest.isEmpty() ? real : new Path(real.toString() + rest);
            } catch (FileNotFoundException e) {
                rest.insert(0, "/" + existing.getName());
                existing = existing.getParent();
            }
        }
        return p;
    }
}
