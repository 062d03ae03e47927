package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.geometry.ProjectionTables;

/**
 * The per-projection table of the Joseph kernels (kernels/joseph.cu, "The per-projection table"), computed here in
 * double precision once per projector: fixed-point positions and steps of the walks ({@link #tab}, {@link #FRACTION_BITS}
 * fraction bits) and the
 * float weights ({@link #ftab}). The kernels then walk a column or a ray with one 64-bit addition a step.
 * <ul>
 *   <li>Adjoint: v = sgn·t with sgn the sign of sin, so that v falls by |sin| per image row:
 *       v(i, j) = VOFF + j·VCOS − i·VSTEP; v's bin b is detector bin sgn·b.</li>
 *   <li>Forward: w = fsgn·(the ray's position along an image line), w(u, l) = FPOS0 + u·FRAY + l·FLINE, with fsgn the
 *       sign of the position's change per detector bin, so that FRAY = 1/|cos| (flat) or 1/|sin| (steep) ≥ 1.</li>
 * </ul>
 */
final class JosephTables {
    /** Fields per projection of {@link #tab} and {@link #ftab}, and their indices (kernels/joseph.cuh). */
    static final int TAB = KernelFacts.JOSEPH_TAB, FTAB = KernelFacts.JOSEPH_FTAB;
    static final int VOFF = KernelFacts.JT_VOFF, VCOS = KernelFacts.JT_VCOS, VSTEP = KernelFacts.JT_VSTEP, VSGN = KernelFacts.JT_VSGN;
    static final int FPOS0 = KernelFacts.JT_FPOS0, FRAY = KernelFacts.JT_FRAY, FLINE = KernelFacts.JT_FLINE;
    static final int FFLAGS = KernelFacts.JT_FFLAGS;
    static final int IG = KernelFacts.JF_IG, IG2 = KernelFacts.JF_IG2, W = KernelFacts.JF_W;
    /** FFLAGS bits: the ray crosses image rows (|cos| ≥ |sin|); the position falls as the detector bin rises. */
    static final int FLAT = KernelFacts.JT_FLAT, NEGATIVE = KernelFacts.JT_NEGATIVE;
    /** Fraction bits of the fixed-point fields: the integer part is the high 32-bit word. */
    static final int FRACTION_BITS = KernelFacts.JOSEPH_FRACTION_BITS;
    static final double ONE = Math.scalb(1.0, FRACTION_BITS);

    final long[] tab;
    final float[] ftab;

    JosephTables(ProjectionTables t) {
        int np = t.numProjections();
        tab = new long[np * TAB];
        ftab = new float[np * FTAB];
        for (int p = 0; p < np; p++) {
            double c = t.cos(p), s = t.sin(p), o = t.offset(p);
            int sgn = s >= 0 ? 1 : -1, base = p * TAB;
            tab[base + VOFF] = fixed(sgn * o);
            tab[base + VCOS] = fixed(sgn * c);
            tab[base + VSTEP] = fixed(Math.abs(s));
            tab[base + VSGN] = sgn;
            boolean flat = Math.abs(c) >= Math.abs(s);
            // flat: at image row l the ray through bin u passes column (u − o + l·sin)/cos; steep: at column l it
            // passes row (o + l·cos − u)/sin
            double perBin = flat ? 1 / c : -1 / s, start = flat ? -o / c : o / s, perLine = flat ? s / c : c / s;
            int fsgn = perBin < 0 ? -1 : 1;
            tab[base + FPOS0] = fixed(fsgn * start);
            tab[base + FRAY] = fixed(Math.abs(perBin));
            tab[base + FLINE] = fixed(fsgn * perLine);
            tab[base + FFLAGS] = (flat ? FLAT : 0) | (fsgn < 0 ? NEGATIVE : 0);
            double ig = 1 / Math.max(Math.abs(c), Math.abs(s));
            ftab[p * FTAB + IG] = (float) ig;
            ftab[p * FTAB + IG2] = (float) (ig * ig);
            ftab[p * FTAB + W] = (float) ig;
        }
    }

    static long fixed(double x) {
        return Math.round(x * ONE);
    }
}
