package org.tomospark.job.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The real location of a local path, resolved component by component: each symbolic link replaced by what it points to
 * (a dangling one too, so that a link to a folder not yet made is judged by where it leads), and '..' taken after the
 * links before it, as the kernel does. The path need not exist.
 */
final class LocalRealPath {
    /** As many links as one resolution follows, the kernel's limit: more is a loop. */
    private static final int MAX_LINKS = 40;

    private LocalRealPath() {
    }

    static Path resolve(Path absolute) throws IOException {
        Path cur = absolute.getRoot();
        Deque<String> todo = new ArrayDeque<>();
        for (Path name : absolute) todo.addLast(name.toString());
        int links = 0;
        while (!todo.isEmpty()) {
            String name = todo.removeFirst();
            if (name.isEmpty() || name.equals(".")) continue;
            if (name.equals("..")) {
                if (cur.getParent() != null) cur = cur.getParent();
                continue;
            }
            Path next = cur.resolve(name);
            if (Files.isSymbolicLink(next)) {
                if (++links > MAX_LINKS) throw new IOException(absolute + ": too many levels of symbolic links");
                Path target = Files.readSymbolicLink(next);
                if (target.isAbsolute()) cur = target.getRoot();
                List<String> parts = new ArrayList<>();
                for (Path t : target) parts.add(t.toString());
                for (int i = parts.size() - 1; i >= 0; i--) todo.addFirst(parts.get(i));
                continue;
            }
            cur = next;
        }
        return cur;
    }
}
