package org.tomospark.notebook;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run's report (the contents of report.json) as a read-only map, with typed access by a dotted path:
 * {@code report.number("timings.gups")}, {@code report.text("backend.id")}, {@code report.section("workflow.center")}.
 * A missing key or a value of another type is an error that names the path and what is there.
 */
public final class Report extends AbstractMap<String, Object> {
    private final Map<String, Object> values;

    Report(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return values.entrySet();
    }

    @Override
    public Object get(Object key) {
        return values.get(key);
    }

    /** A few lines: the top-level keys and the calls that read them; {@link #entrySet} holds the values. */
    @Override
    public String toString() {
        return Printed.report(this);
    }

    /** The value at a dotted path ("timings.gups"), or null when a step of the path is absent. */
    public Object at(String path) {
        Object v = values;
        for (String step : path.split("\\.")) {
            if (!(v instanceof Map<?, ?> m)) return null;
            v = m.get(step);
        }
        return v;
    }

    /** A number, e.g. {@code number("centerOfRotation")} or {@code number("timings.gups")}. */
    public double number(String path) {
        return typed(path, Number.class).doubleValue();
    }

    /** A string, e.g. {@code text("backend.id")}. */
    public String text(String path) {
        return typed(path, String.class);
    }

    /** A nested section, e.g. {@code section("timings")}. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> section(String path) {
        return (Map<String, Object>) typed(path, Map.class);
    }

    /** A list, e.g. {@code list("warnings")}. */
    public List<?> list(String path) {
        return typed(path, List.class);
    }

    private <T> T typed(String path, Class<T> type) {
        Object v = at(path);
        if (v == null)
            throw new IllegalArgumentException("report: no value at '" + path + "' (top-level keys: " + values.keySet()
                    + ")");
        if (!type.isInstance(v))
            throw new IllegalArgumentException("report: '" + path + "' is a " + v.getClass().getSimpleName() + " (" + v
                    + "), not a " + type.getSimpleName());
        return type.cast(v);
    }
}
