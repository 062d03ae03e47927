package org.tomospark.job.fs;

import org.apache.hadoop.fs.Path;

/** A path or URI as the user gave it (an option, a list file's line, a table's entry), as a Hadoop path. */
public final class UserPaths {
    private UserPaths() {
    }

    /**
     * Resolves a user path or URI as Hadoop does ({@link Path#Path(String)}): scheme and authority if given, the rest
     * taken literally, so '#', '%', spaces and brackets are part of the name, not URI syntax.
     *
     * @param what what the path is, for errors (e.g. "output (--output)")
     */
    public static Path path(String uri, String what) {
        if (uri == null || uri.isBlank()) throw new IllegalArgumentException(what + ": no path given");
        try {
            return new Path(uri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": '" + uri + "' is not a usable path or URI (" + e.getMessage() + ")", e);
        }
    }
}
