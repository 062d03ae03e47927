import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Writes KernelCalls.java, the CUDA kernels' argument builders, from the {@code signature} lines of the variant
 * manifest (kernels/manifest.cpp prints them from kernels/signatures.cuh): one builder class per parameter list, one
 * typed setter per parameter, named as the kernel names it. Run by the gpu-executor build (exec-maven-plugin) before
 * compiling, as a single-file program: {@code java KernelCallsGenerator.java MANIFEST OUTPUT_ROOT}. A parameter renamed
 * in kernels/ thus renames its setter, and Java code still passing the old name does not compile.
 */
public final class KernelCallsGenerator {
    private static final String PACKAGE = "org.tomospark.executor.backends.cuda";

    record Param(String name, String kind) {
    }

    record Signature(String id, String kernel, List<Param> params) {
        String className() {
            StringBuilder b = new StringBuilder();
            for (String part : id.split("_")) b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
            return b.toString();
        }

        String factory() {
            String c = className();
            return Character.toLowerCase(c.charAt(0)) + c.substring(1);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java KernelCallsGenerator.java MANIFEST OUTPUT_ROOT");
            System.exit(2);
        }
        Path manifest = Path.of(args[0]);
        List<Signature> signatures = parse(manifest);
        Path out = Path.of(args[1]).resolve(PACKAGE.replace('.', '/')).resolve("KernelCalls.java");
        Files.createDirectories(out.getParent());
        // a KernelCalls of an earlier package, left in this generator's own output folder, would be compiled too
        try (Stream<Path> files = Files.walk(Path.of(args[1]))) {
            for (Path p : files.filter(p -> p.getFileName().toString().equals("KernelCalls.java") && !p.equals(out)).toList())
                Files.delete(p);
        }
        String text = render(signatures);
        // an unchanged file keeps its time stamp, so the compiler sees nothing new
        if (Files.exists(out) && Files.readString(out).equals(text)) return;
        Files.writeString(out, text, StandardCharsets.UTF_8);
    }

    static List<Signature> parse(Path manifest) throws IOException {
        List<Signature> list = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            lineNo++;
            if (!line.startsWith("signature ")) continue;
            String[] parts = line.trim().split("\\s+");
            String where = manifest + ", line " + lineNo + ": ";
            if (parts.length != 4 || !parts[2].startsWith("kernel=") || !parts[3].startsWith("params="))
                throw new IllegalArgumentException(where + "expected 'signature ID kernel=NAME params=NAME:KIND,...'");
            List<Param> params = new ArrayList<>();
            for (String p : parts[3].substring("params=".length()).split(",")) {
                int colon = p.indexOf(':');
                if (colon <= 0) throw new IllegalArgumentException(where + "parameter '" + p + "' is not NAME:KIND");
                Param param = new Param(p.substring(0, colon), p.substring(colon + 1));
                setterTypes(param, where);
                params.add(param);
            }
            list.add(new Signature(parts[1], parts[2].substring("kernel=".length()), params));
        }
        if (list.isEmpty()) throw new IllegalArgumentException(manifest + ": no 'signature' lines (built by an older manifest.cpp?)");
        return list;
    }

    /** The Java types a parameter of this kind is set from, and the base class method that stores it. */
    private static List<String[]> setterTypes(Param p, String where) {
        String k = p.kind();
        if (k.equals("ptr")) return List.<String[]>of(new String[] {"NativePointerObject", "pointer"});
        if (k.equals("handle"))
            return List.of(new String[] {"NativePointerObject", "pointer"}, new String[] {"long", "handle"});
        if (k.equals("i32")) return List.<String[]>of(new String[] {"int", "i32"});
        if (k.equals("i64")) return List.<String[]>of(new String[] {"long", "i64"});
        if (k.equals("f32")) return List.<String[]>of(new String[] {"float", "f32"});
        if (k.equals("f64")) return List.<String[]>of(new String[] {"double", "f64"});
        if (k.matches("bytes[0-9]+")) return List.<String[]>of(new String[] {"byte[]", "bytes"});
        throw new IllegalArgumentException(where + "parameter " + p.name() + " has a kind no setter is made for: " + k);
    }

    /** Appends "a", "b", ... wrapped within the line length, the first line starting at column. */
    private static void quoted(StringBuilder b, List<String> names, int column) {
        for (int i = 0; i < names.size(); i++) {
            String q = '"' + names.get(i) + '"';
            if (i > 0) {
                b.append(',');
                if (column + q.length() + 4 > 120) {
                    b.append("\n                ");
                    column = 16;
                } else {
                    b.append(' ');
                }
            }
            b.append(q);
            column += q.length() + 2;
        }
    }

    static String render(List<Signature> signatures) {
        StringBuilder b = new StringBuilder();
        b.append("package ").append(PACKAGE).append(";\n\n");
        b.append("import jcuda.NativePointerObject;\n\n");
        b.append("import java.util.List;\n\n");
        b.append("/**\n * The CUDA kernels' parameter lists (kernels/signatures.cuh), one argument builder each. Generated by the build from the\n")
                .append(" * variant manifest (gpu-executor/src/build/KernelCallsGenerator.java): not to be edited.\n */\n");
        b.append("final class KernelCalls {\n");
        b.append("    private KernelCalls() {\n    }\n\n");
        b.append("    /** Every parameter list, by its name in kernels/signatures.cuh, with its parameters' names in order. */\n");
        b.append("    enum Signature {\n");
        for (int i = 0; i < signatures.size(); i++) {
            Signature s = signatures.get(i);
            List<String> names = new ArrayList<>();
            for (Param p : s.params()) names.add(p.name());
            b.append("        ").append(s.id()).append('(');
            quoted(b, names, 9 + s.id().length());
            b.append(')').append(i + 1 < signatures.size() ? ",\n" : ";\n");
        }
        b.append("\n        /** The parameters' names, in declaration order. */\n");
        b.append("        final List<String> params;\n\n");
        b.append("        Signature(String... params) {\n            this.params = List.of(params);\n        }\n");
        b.append("    }\n");
        for (Signature s : signatures) {
            String c = s.className();
            List<String> names = new ArrayList<>();
            for (Param p : s.params()) names.add(p.name());
            b.append("\n    /** ").append(s.id()).append(s.kernel().equals("-") ? "" : " (kernel " + s.kernel() + ")")
                    .append(": a new argument list. */\n");
            b.append("    static ").append(c).append(' ').append(s.factory()).append("() {\n");
            b.append("        return new ").append(c).append("();\n    }\n\n");
            b.append("    /** The arguments of ").append(s.id()).append(": ").append(String.join(", ", names)).append(". */\n");
            b.append("    static final class ").append(c).append(" extends KernelArgs<").append(c).append("> {\n");
            if (!s.kernel().equals("-"))
                b.append("        /** The kernel's name. */\n        static final String KERNEL = \"").append(s.kernel()).append("\";\n\n");
            b.append("        private ").append(c).append("() {\n");
            b.append("            super(Signature.").append(s.id()).append(");\n        }\n");
            for (int i = 0; i < s.params().size(); i++) {
                Param p = s.params().get(i);
                for (String[] t : setterTypes(p, "")) {
                    b.append("\n        ").append(c).append(' ').append(p.name()).append('(').append(t[0]).append(" v) {\n");
                    b.append("            return ").append(t[1]).append('(').append(i).append(", v");
                    if (t[1].equals("bytes")) b.append(", ").append(p.kind().substring("bytes".length()));
                    b.append(");\n        }\n");
                }
            }
            b.append("    }\n");
        }
        b.append("}\n");
        return b.toString();
    }
}
