package org.tomospark.job.fs;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** JSON helpers for the manifest and reports, and SHA-256. */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private Json() {
    }

    public static byte[] write(Object o) {
        try {
            return MAPPER.writeValueAsBytes(o);
        } catch (Exception e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    public static Map<String, Object> read(byte[] b, String what) {
        try {
            return MAPPER.readValue(b, new TypeReference<LinkedHashMap<String, Object>>() {
            });
        } catch (Exception e) {
            throw new IllegalArgumentException(what + ": not valid JSON (" + e.getMessage() + ")", e);
        }
    }

    /** A JSON-ready view of records, enums, arrays, maps and scalars (records by component name). */
    public static Object describe(Object o) {
        if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean) {
            if (o instanceof Double d && !Double.isFinite(d)) return d.toString();
            if (o instanceof Float f && !Float.isFinite(f)) return f.toString();
            return o;
        }
        if (o instanceof Enum<?> e) return e.name().toLowerCase(Locale.ROOT);
        if (o.getClass().isArray()) {
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < Array.getLength(o); i++) l.add(describe(Array.get(o, i)));
            return l;
        }
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> r = new TreeMap<>();
            m.forEach((k, v) -> r.put(String.valueOf(k), describe(v)));
            return r;
        }
        if (o instanceof Iterable<?> it) {
            List<Object> l = new ArrayList<>();
            it.forEach(x -> l.add(describe(x)));
            return l;
        }
        if (o.getClass().isRecord()) {
            Map<String, Object> r = new LinkedHashMap<>();
            for (RecordComponent c : o.getClass().getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    r.put(c.getName(), describe(c.getAccessor().invoke(o)));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return r;
        }
        return o.toString();
    }

    public static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
