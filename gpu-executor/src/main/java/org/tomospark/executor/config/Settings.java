package org.tomospark.executor.config;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Immutable key/value settings, read through typed {@link ConfigKey}s. Unknown keys are rejected. The keys keep the
 * order they were first set in (a loaded file's in sorted order), which {@link #toString} shows.
 */
public final class Settings implements Serializable {
    private final Map<String, String> values;

    private Settings(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static Settings empty() {
        return new Settings(Map.of());
    }

    /** Loads a properties file; every key must be registered. */
    public static Settings load(Reader r, String sourceName) throws IOException {
        Properties p = new Properties();
        p.load(r);
        Map<String, String> m = new TreeMap<>();
        for (String k : p.stringPropertyNames()) m.put(k, p.getProperty(k));
        Settings s = new Settings(m);
        s.checkKnown(sourceName);
        return s;
    }

    public Settings with(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(key, value);
        Settings s = new Settings(m);
        s.checkKnown("--conf");
        return s;
    }

    public Settings withAll(Settings overrides) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.putAll(overrides.values);
        return new Settings(m);
    }

    public void checkKnown(String source) {
        for (String k : values.keySet())
            if (ConfigRegistry.find(k) == null)
                throw new IllegalArgumentException(source + ": " + ConfigRegistry.unknown(k));
    }

    public <T> T get(ConfigKey<T> key) {
        String v = values.get(key.name());
        if (v == null) v = key.defaultValue();
        if (v == null) return null;
        return key.parse(v);
    }

    public boolean isSet(ConfigKey<?> key) {
        return values.containsKey(key.name());
    }

    public Map<String, String> asMap() {
        return values;
    }

    /** The keys set, with their values as given: {@code Settings(center=296, filter=shepp-logan)}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Settings(");
        values.forEach((k, v) -> sb.append(sb.length() > "Settings(".length() ? ", " : "").append(k).append('=').append(v));
        return sb.append(')').toString();
    }
}
