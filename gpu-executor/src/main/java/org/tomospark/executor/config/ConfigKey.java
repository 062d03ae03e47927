package org.tomospark.executor.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One typed configuration key: name, documentation, default, parser and validator. Errors name the key.
 * Keys are declared as constants by the packages that read them (the algorithm's in params.CoreKeys, each backend's in
 * its own package, the job's in spark-job) and collected in a {@link ConfigRegistry}, which
 * generates the documentation in conf/.
 */
public final class ConfigKey<T> {
    private final String name;
    private final String doc;
    private final String defaultValue;
    private final Function<String, T> parser;
    private final Predicate<T> validator;
    private final String constraint;
    private final String category;
    private final boolean choice;
    private volatile boolean internal;

    private ConfigKey(String category, String name, String doc, String defaultValue, Function<String, T> parser,
                      Predicate<T> validator, String constraint, boolean choice) {
        this.category = category;
        this.choice = choice;
        this.name = Objects.requireNonNull(name);
        this.doc = Objects.requireNonNull(doc);
        this.defaultValue = defaultValue;
        this.parser = parser;
        this.validator = validator;
        this.constraint = constraint;
    }

    public static <T> ConfigKey<T> of(String category, String name, String doc, String defaultValue,
                                      Function<String, T> parser, Predicate<T> validator, String constraint) {
        return declare(new ConfigKey<>(category, name, doc, defaultValue, parser, validator, constraint, false));
    }

    private static <T> ConfigKey<T> declare(ConfigKey<T> k) {
        String defaultValue = k.defaultValue;
        if (defaultValue != null) k.parse(defaultValue); // a bad default is a programming error
        ConfigRegistry.register(k);
        return k;
    }

    public static ConfigKey<String> string(String category, String name, String doc, String def) {
        return of(category, name, doc, def, s -> s, s -> true, "");
    }

    public static ConfigKey<Integer> integer(String category, String name, String doc, int def, int min, int max) {
        return of(category, name, doc, Integer.toString(def), Integer::parseInt, v -> v >= min && v <= max,
                "integer in [" + min + ", " + max + "]");
    }

    public static ConfigKey<Double> decimal(String category, String name, String doc, String def, double min, double max) {
        return of(category, name, doc, def, s -> s.isBlank() ? Double.NaN : number(s),
                v -> Double.isNaN(v) || (v >= min && v <= max), "number in [" + min + ", " + max + "]"
                        + (def != null && def.isEmpty() ? " or empty" : ""));
    }

    /**
     * A finite number. "NaN" is refused: keys whose default is empty use NaN internally for "not set", so a NaN given
     * on purpose would silently mean the default. Infinities are refused too, and so is a number too large for a double
     * ("1e999"), which Java would read as one: no key means anything by an infinite value.
     */
    public static double number(String s) {
        double v = Double.parseDouble(s.trim());
        if (Double.isNaN(v)) throw new IllegalArgumentException("NaN is not a number here; leave the key empty for its default");
        if (Double.isInfinite(v))
            throw new IllegalArgumentException("not a finite number" + (s.trim().matches("[+-]?Infinity")
                    ? "" : " (beyond the largest double, " + Double.MAX_VALUE + ")"));
        return v;
    }

    public static ConfigKey<Boolean> bool(String category, String name, String doc, boolean def) {
        return of(category, name, doc, Boolean.toString(def), s -> {
            String t = s.trim().toLowerCase(Locale.ROOT);
            if (t.equals("true") || t.equals("yes") || t.equals("1")) return true;
            if (t.equals("false") || t.equals("no") || t.equals("0")) return false;
            throw new IllegalArgumentException("expected true or false");
        }, v -> true, "true or false");
    }

    public static <E> ConfigKey<E> choice(String category, String name, String doc, String def, Function<String, E> parser,
            String choices) {
        return declare(new ConfigKey<>(category, name, doc, def, parser, v -> true, "one of " + choices, true));
    }

    /**
     * Parses and validates a value. The error reads {@code config key NAME: invalid value 'VALUE': REASON}, once: the
     * reason is what the values may be (a choice key's list, with the nearest choice when one is close; a number's
     * range), or, where the parser knows better (a NaN, a bad list), the parser's own words.
     */
    public T parse(String value) {
        T v;
        try {
            v = parser.apply(value.trim());
        } catch (RuntimeException e) {
            throw invalid(value, reason(value, e), e);
        }
        if (!validator.test(v)) throw invalid(value, reason(value, null), null);
        return v;
    }

    /** The words a value may be, when the constraint is a list of them ("one of a, b", "a, b or c"); else none. */
    private List<String> choices() {
        String list = constraint.startsWith("one of ") ? constraint.substring("one of ".length()) : constraint;
        List<String> words = List.of(list.split(",\\s*|\\s+or\\s+"));
        for (String w : words) if (!w.matches("[A-Za-z0-9][\\w.-]*")) return List.of();
        return words;
    }

    /** The error for a value of this key that is refused for {@code reason} (found by a later check, e.g. against the data). */
    public IllegalArgumentException invalid(String value, String reason, Throwable cause) {
        return new IllegalArgumentException("config key " + name + ": invalid value '" + value + "': " + reason, cause);
    }

    private String reason(String value, RuntimeException e) {
        String expected = constraint.isEmpty() ? "not allowed" : "expected " + constraint + Suggest.hint(value, choices());
        if (choice || e == null) return expected;
        if (e instanceof NumberFormatException || e.getMessage() == null) return constraint.isEmpty() ? "not readable" : expected;
        // "unknown backend 'x': expected ..." quotes the value the error already quotes: keep what follows it
        String m = e.getMessage();
        String quoted = "'" + value.trim() + "': ";
        int at = m.indexOf(quoted);
        return m.startsWith("unknown ") && at >= 0 ? m.substring(at + quoted.length()) : m;
    }

    public String name() {
        return name;
    }

    public String doc() {
        return doc;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String constraint() {
        return constraint;
    }

    public String category() {
        return category;
    }

    /**
     * Marks a knob for tests and tuning (fault injection, kernel experiments): it works like any key, but the user
     * documentation (conf/CONFIG.md, the example properties) leaves it out. Call on the declaration.
     */
    public ConfigKey<T> internal() {
        internal = true;
        return this;
    }

    public boolean isInternal() {
        return internal;
    }

    @Override
    public String toString() {
        return name;
    }
}
