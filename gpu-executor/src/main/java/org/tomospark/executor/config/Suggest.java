package org.tomospark.executor.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The name a mistyped one was probably meant to be, for "did you mean" hints: the same name in another case, the
 * candidate whose last dotted part it is ("tvWeight" for iterative.tvWeight), the nearest by edit distance (at most
 * two insertions, deletions or substitutions, fewer than the name's length), or the one candidate it begins.
 */
public final class Suggest {
    /** The largest edit distance a suggestion may have. */
    static final int MAX_DISTANCE = 2;

    private Suggest() {
    }

    /** The candidate {@code given} most likely means, or null when none is close; never {@code given} itself. */
    public static String closest(String given, Iterable<String> candidates) {
        String g = given.trim().toLowerCase(Locale.ROOT);
        if (g.isEmpty()) return null;
        List<String> lastPart = new ArrayList<>();
        List<String> prefixed = new ArrayList<>();
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (String c : candidates) {
            if (c.equals(given)) continue;
            String l = c.toLowerCase(Locale.ROOT);
            if (l.equals(g)) return c;
            if (l.endsWith("." + g)) lastPart.add(c);
            if (l.startsWith(g)) prefixed.add(c);
            int d = distance(g, l);
            if (d < best) {
                best = d;
                nearest = c;
            }
        }
        if (lastPart.size() == 1) return lastPart.get(0);
        if (best <= MAX_DISTANCE && best < g.length()) return nearest;
        if (prefixed.size() == 1 && g.length() >= 3) return prefixed.get(0);
        return null;
    }

    public static String closest(String given, String... candidates) {
        return closest(given, List.of(candidates));
    }

    /** " (did you mean 'x'?)" for the closest candidate, or "" when none is close. */
    public static String hint(String given, Iterable<String> candidates) {
        String c = closest(given, candidates);
        return c == null ? "" : " (did you mean '" + c + "'?)";
    }

    /** Levenshtein distance: the fewest insertions, deletions and substitutions that turn {@code a} into {@code b}. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
