package org.tomospark.job.batch;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of software versions such as {@code 0.2.0} and {@code 0.1.0-SNAPSHOT}: numeric components compared as
 * numbers (missing ones are 0), and at equal numbers a pre-release (anything after the numbers) below the release.
 */
final class VersionOrder {
    private VersionOrder() {
    }

    static int compare(String a, String b) {
        List<Long> x = numbers(a), y = numbers(b);
        for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
            long p = i < x.size() ? x.get(i) : 0, q = i < y.size() ? y.get(i) : 0;
            if (p != q) return Long.compare(p, q);
        }
        boolean preA = !qualifier(a).isEmpty(), preB = !qualifier(b).isEmpty();
        return preA == preB ? 0 : preA ? -1 : 1;
    }

    private static List<Long> numbers(String v) {
        List<Long> l = new ArrayList<>();
        for (String part : leading(v).split("\\.")) if (!part.isEmpty()) l.add(Long.parseLong(part));
        return l;
    }

    private static String leading(String v) {
        int i = 0;
        while (i < v.length() && (Character.isDigit(v.charAt(i)) || v.charAt(i) == '.')) i++;
        return v.substring(0, i);
    }

    private static String qualifier(String v) {
        return v.substring(leading(v).length());
    }
}
