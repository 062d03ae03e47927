package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backends.cuda.KernelVariant.CacheFill;
import org.tomospark.executor.backends.cuda.KernelVariant.Design;
import org.tomospark.executor.backends.cuda.KernelVariant.Family;
import org.tomospark.executor.backends.cuda.KernelVariant.HalfMath;
import org.tomospark.executor.backends.cuda.KernelVariant.Inputs;
import org.tomospark.executor.backends.cuda.KernelVariant.Launch;
import org.tomospark.executor.backends.cuda.KernelVariant.TexRead;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The variant manifest: every row of kernels/variants.def as kernels/manifest.cpp prints it (one kernel per line,
 * its symbol then key=value facts; the format is described there), and the sets compiled into the modules beside
 * it ({@code compiled=product} or {@code compiled=product,explore}). The kernels' facts are read here, never
 * restated: names, launch shapes, shared memory, helper kernels.
 *
 * @param compiled the sets whose rows the modules beside the manifest hold
 * @param rows     every row, in the order of variants.def
 */
record KernelManifest(Set<String> compiled, List<Row> rows) {
    private static final String SIGNATURE = "signature ";

    /** A row and the set it belongs to (product: built by default; explore: on request). */
    record Row(String set, KernelVariant variant) {
    }

    /** The rows the modules beside this manifest hold. */
    List<KernelVariant> compiledVariants() {
        List<KernelVariant> l = new ArrayList<>();
        for (Row r : rows) if (compiled.contains(r.set())) l.add(r.variant());
        return l;
    }

    static KernelManifest parse(String text) {
        Set<String> compiled = null;
        List<Row> rows = new ArrayList<>();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            String l = line.trim();
            if (l.isEmpty() || l.startsWith("#")) continue;
            if (l.startsWith("compiled=")) {
                compiled = Set.of(l.substring("compiled=".length()).split(","));
                continue;
            }
            try {
                if (l.startsWith(SIGNATURE)) {
                    checkSignature(l);
                    continue;
                }
                // the FDK and Joseph kernels' facts: compiled into KernelFacts from the packaged manifest
                if (l.startsWith("constant ") || l.startsWith("kernel ")) continue;
                rows.add(row(l));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cuda variant manifest, line " + lineNo + ": " + e.getMessage(), e);
            }
        }
        if (compiled == null) throw new IllegalArgumentException("cuda variant manifest: no 'compiled=' line");
        return new KernelManifest(compiled, List.copyOf(rows));
    }

    /**
     * A parameter list as the kernels beside this manifest declare it, which must be the one the Java side was generated
     * from ({@link KernelCalls}): fatbins built from other kernel sources than the classes are refused here.
     */
    private static void checkSignature(String line) {
        String[] parts = line.split("\\s+");
        if (parts.length != 4 || !parts[3].startsWith("params="))
            throw new IllegalArgumentException("expected 'signature ID kernel=NAME params=NAME:KIND,...'");
        KernelCalls.Signature sig;
        try {
            sig = KernelCalls.Signature.valueOf(parts[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parameter list " + parts[1] + " is unknown to this build's KernelCalls", e);
        }
        List<String> names = new ArrayList<>();
        for (String p : parts[3].substring("params=".length()).split(",")) names.add(p.substring(0, p.indexOf(':')));
        if (!names.equals(sig.params))
            throw new IllegalArgumentException("the kernels declare " + sig + " as " + names + ", this build's KernelCalls as "
                    + sig.params + " (kernels built from other sources)");
    }

    private static Row row(String line) {
        String[] parts = line.split("\\s+");
        Fields f = new Fields(parts);
        Family family = Family.valueOf(upper(f.text("family")));
        Design design = Design.builder(family)
                .zorder(f.text("order").equals("z"))
                .advanced(f.text("caching").equals("adv"))
                .tile(f.number("tile"), f.number("rows"))
                .ppt(f.number("ppt"))
                .texShare(f.number("texShare"))
                .halfMath(HalfMath.valueOf(upper(f.text("halfMath"))))
                .texRead(TexRead.valueOf(upper(f.text("texRead"))))
                .minBlocks(f.number("minBlocks"))
                .maxRegs(f.number("maxRegs"))
                .fill(CacheFill.valueOf(upper(f.text("fill"))), f.number("batch"))
                .build();
        Launch launch = new Launch(f.number("threads"), f.number("groupsPerBlock"), f.number("dynamicShared"),
                f.number("maxProjections"), KernelCalls.Signature.valueOf(f.text("args")));
        Inputs inputs = new Inputs(f.text("pack"), f.optional("absmax"), f.optional("entries"), f.number("entryBytes"));
        KernelVariant v = new KernelVariant(parts[0], f.number("k"), SampleFormat.parse(f.text("format")),
                Interpolation.parse(f.text("interpolation")), design, launch, inputs);
        f.checkAllRead();
        return new Row(f.text("set"), v);
    }

    private static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    /** The key=value pairs of one line, each of which must be read exactly as the manifest's format says. */
    private static final class Fields {
        private final Map<String, String> values = new HashMap<>();
        private final Set<String> read = new HashSet<>();

        Fields(String[] parts) {
            for (int i = 1; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq <= 0) throw new IllegalArgumentException("'" + parts[i] + "' is not key=value");
                if (values.put(parts[i].substring(0, eq), parts[i].substring(eq + 1)) != null)
                    throw new IllegalArgumentException("key " + parts[i].substring(0, eq) + " given twice");
            }
        }

        String text(String key) {
            String v = values.get(key);
            if (v == null) throw new IllegalArgumentException("no " + key + "=");
            read.add(key);
            return v;
        }

        /** A helper kernel's name, or null for "-". */
        String optional(String key) {
            String v = text(key);
            return v.equals("-") ? null : v;
        }

        int number(String key) {
            String v = text(key);
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + "=" + v + " is not a number");
            }
        }

        void checkAllRead() {
            text("set");
            for (String k : values.keySet())
                if (!read.contains(k)) throw new IllegalArgumentException("unknown key " + k + "=");
        }
    }
}
