package org.tomospark.job.outputs.hdf5;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Attributes from a tree of plain values (maps, lists, strings, numbers, booleans), as JSON would hold them: nested
 * maps are flattened into dotted names ({@code geometry.center}); integers become 64-bit integers, other numbers
 * 64-bit floats; lists of numbers one-dimensional arrays; strings, booleans and other lists strings. Nulls are left
 * out.
 */
public final class H5Attributes {
    private H5Attributes() {
    }

    public static List<H5Attribute> flatten(Map<String, ?> values) {
        List<H5Attribute> out = new ArrayList<>();
        add(out, "", values);
        return out;
    }

    private static void add(List<H5Attribute> out, String prefix, Map<?, ?> values) {
        for (Map.Entry<?, ?> e : values.entrySet()) {
            String name = prefix + e.getKey();
            Object v = e.getValue();
            if (v == null) continue;
            if (v instanceof Map<?, ?> m) add(out, name + ".", m);
            else if (v instanceof Number n) out.add(integral(n) ? H5Attribute.integer(name, n.longValue())
                    : H5Attribute.real(name, n.doubleValue()));
            else if (v instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(x -> x instanceof Number))
                out.add(numbers(name, l));
            else out.add(H5Attribute.text(name, String.valueOf(v)));
        }
    }

    private static H5Attribute numbers(String name, List<?> l) {
        if (l.stream().allMatch(x -> integral((Number) x)))
            return H5Attribute.integers(name, l.stream().mapToLong(x -> ((Number) x).longValue()).toArray());
        return H5Attribute.reals(name, l.stream().mapToDouble(x -> ((Number) x).doubleValue()).toArray());
    }

    private static boolean integral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
    }
}
