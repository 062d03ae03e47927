package org.tomospark.executor.inputs;

import java.io.IOException;

/**
 * Finds and opens the files a virtual dataset's mappings name. As HDF5 does, a relative name is taken relative to the
 * folder of the file that holds the virtual dataset, and an absolute one as it is.
 */
public interface SourceFiles {
    /** The file {@code name} (as the mapping stores it) leads to, as a path or URI for opening and for messages. */
    String resolve(String name);

    /** Whether the resolved file exists and is a file. */
    boolean exists(String resolved) throws IOException;

    /** Opens the resolved file for reading. */
    SourceFile open(String resolved, ReadOptions options) throws IOException;

    /** For a file opened from a channel alone: no virtual dataset source can be found. */
    static SourceFiles none(String file) {
        return new SourceFiles() {
            @Override
            public String resolve(String name) {
                return name;
            }

            @Override
            public boolean exists(String resolved) throws IOException {
                throw new IOException(file
                        + " was opened from a stream, so the source files of its virtual datasets cannot be found;"
                        + " open it by its path");
            }

            @Override
            public SourceFile open(String resolved, ReadOptions options) throws IOException {
                throw new IOException(resolved + ": cannot be opened next to " + file);
            }
        };
    }
}
