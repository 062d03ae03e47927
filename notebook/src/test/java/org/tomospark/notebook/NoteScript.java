package org.tomospark.notebook;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads notebook code (the Scala paragraphs of a Zeppelin note, the README's snippets, and their Java translations in
 * a test's source) and says which calls of the notebook API it makes, in order, and which URIs it names: two pieces of
 * code that agree on both make the same runs.
 */
final class NoteScript {
    private static final Pattern CALL = Pattern.compile("\\.\\s*([A-Za-z_]\\w*)");
    private static final Pattern URI = Pattern.compile("\"(hdfs://[^\"]*)\"");
    private static final Pattern COMMENT = Pattern.compile("(?m)(^|\\s)//(\\s|$).*$");
    private static final Set<String> API = apiNames();

    private NoteScript() {
    }

    /** The public methods of the notebook API's types, less Object's. */
    private static Set<String> apiNames() {
        Set<String> names = new TreeSet<>();
        for (Class<?> c : List.of(Reconstruction.class, Reconstruction.Builder.class, Reconstruction.Result.class,
                Reconstruction.Sweep.class, Report.class))
            for (Method m : c.getDeclaredMethods()) if (Modifier.isPublic(m.getModifiers())) names.add(m.getName());
        names.removeAll(Set.of("toString", "equals", "hashCode"));
        return names;
    }

    private static String code(String text) {
        return COMMENT.matcher(text).replaceAll("");
    }

    /** The notebook API's methods the code calls, in order (comments left out). */
    static List<String> apiCalls(String text) {
        List<String> calls = new ArrayList<>();
        Matcher m = CALL.matcher(code(text));
        while (m.find()) if (API.contains(m.group(1))) calls.add(m.group(1));
        return calls;
    }

    /** The hdfs URIs the code names, in order. */
    static List<String> uris(String text) {
        List<String> l = new ArrayList<>();
        Matcher m = URI.matcher(code(text));
        while (m.find()) l.add(m.group(1));
        return l;
    }

    /**
     * The sections of a Java source between the lines {@code // <kind>: NAME} and {@code // end of <kind>}, by name in
     * the order they appear.
     */
    static Map<String, String> sections(Path source, String kind) {
        Map<String, String> m = new LinkedHashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : read(source).split("\n")) {
            String t = line.strip();
            if (t.startsWith("// " + kind + ": ")) {
                name = t.substring(kind.length() + 5);
                body.setLength(0);
            } else if (t.equals("// end of " + kind) && name != null) {
                m.put(name, body.toString());
                name = null;
            } else if (name != null) {
                body.append(line).append('\n');
            }
        }
        return m;
    }

    /** The code of the fenced blocks in {@code lang} of the Markdown section that starts with {@code heading}. */
    static List<String> fencedBlocks(Path markdown, String heading, String lang) {
        String text = read(markdown);
        int start = text.indexOf("\n" + heading + "\n");
        if (start < 0) throw new IllegalArgumentException(markdown + ": no section '" + heading + "'");
        int end = text.indexOf("\n## ", start + heading.length() + 2);
        String section = text.substring(start, end < 0 ? text.length() : end);
        List<String> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("```" + lang + "\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (m.find()) blocks.add(m.group(1));
        return blocks;
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
