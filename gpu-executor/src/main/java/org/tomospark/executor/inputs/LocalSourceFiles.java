package org.tomospark.executor.inputs;

import java.nio.file.Files;
import java.nio.file.Path;

/** The source files of a virtual dataset in a local file: relative names are taken from that file's folder. */
record LocalSourceFiles(Path virtualFile) implements SourceFiles {
    @Override
    public String resolve(String name) {
        Path folder = virtualFile.toAbsolutePath().getParent();
        return folder.resolve(name).normalize().toString();
    }

    @Override
    public boolean exists(String resolved) {
        return Files.isRegularFile(Path.of(resolved));
    }

    @Override
    public SourceFile open(String resolved, ReadOptions options) {
        return SourceFile.open(Path.of(resolved));
    }
}
