package org.tomospark.executor.util;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The settings that name one of an enum's constants by a lower-case id ("zarr", "shepp-logan"): parsed in any case
 * and with surrounding blanks, and refused with an error that lists every id, taken from the constants themselves so
 * that the list cannot drift from them.
 */
public final class EnumIds {
    private EnumIds() {
    }

    /**
     * @param values the enum's constants
     * @param id     a constant's id
     * @param text   the setting as given (quoted in the error)
     * @param what   what the setting names, for the error ("output format")
     */
    public static <E> E parse(E[] values, Function<E, String> id, String text, String what) {
        return parse(values, id, text, what, Map.of());
    }

    /** The same, with other names some constants are known by ({@code aliases}: lower-case name to id). */
    public static <E> E parse(E[] values, Function<E, String> id, String text, String what, Map<String, String> aliases) {
        String k = text.trim().toLowerCase(Locale.ROOT);
        k = aliases.getOrDefault(k, k);
        for (E e : values) if (id.apply(e).equals(k)) return e;
        throw new IllegalArgumentException("unknown " + what + " '" + text + "': expected " + choices(values, id));
    }

    /** "a, b, c". */
    public static <E> String choices(E[] values, Function<E, String> id) {
        return Arrays.stream(values).map(id).collect(Collectors.joining(", "));
    }
}
