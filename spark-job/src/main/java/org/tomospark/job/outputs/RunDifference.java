package org.tomospark.job.outputs;

import org.tomospark.job.fs.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Says in words how two runs' signed views ({@link OutputCommit#signed}) differ: "the input differs", or each
 * parameter that does, as {@code name: before -> now}.
 */
final class RunDifference {
    /** At most this many differing parameters are named. */
    static final int MAX_LISTED = 6;

    private RunDifference() {
    }

    static String describe(Object before, Map<String, Object> signedNow) {
        // compare as stored: numbers as JSON reads them back
        Map<String, Object> now = Json.read(Json.write(signedNow), "run signature");
        if (!(before instanceof Map<?, ?> b))
            return "the earlier run recorded no parameters to compare with; it was made by an older version";
        List<String> diffs = new ArrayList<>();
        if (!Objects.equals(String.valueOf(b.get("input")), String.valueOf(now.get("input"))))
            diffs.add("the input differs (its files, lengths or modification times)");
        Map<String, String> x = flatten(b.get("params")), y = flatten(now.get("params"));
        TreeSet<String> keys = new TreeSet<>(x.keySet());
        keys.addAll(y.keySet());
        List<String> params = new ArrayList<>();
        for (String k : keys) {
            String u = x.getOrDefault(k, "(unset)"), v = y.getOrDefault(k, "(unset)");
            if (!u.equals(v)) params.add(k + ": " + u + " -> " + v);
        }
        if (params.size() > MAX_LISTED) {
            int more = params.size() - MAX_LISTED;
            params = new ArrayList<>(params.subList(0, MAX_LISTED));
            params.add("and " + more + " more");
        }
        if (!params.isEmpty()) diffs.add("parameters that differ: " + String.join(", ", params));
        return diffs.isEmpty() ? "the signatures differ" : String.join("; ", diffs);
    }

    /** Nested maps as dotted keys; other values (lists included) as their text. */
    static Map<String, String> flatten(Object o) {
        Map<String, String> out = new TreeMap<>();
        flatten("", o, out);
        return out;
    }

    private static void flatten(String prefix, Object o, Map<String, String> out) {
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet())
                flatten(prefix.isEmpty() ? String.valueOf(e.getKey()) : prefix + "." + e.getKey(), e.getValue(), out);
        } else {
            out.put(prefix, String.valueOf(o));
        }
    }
}
