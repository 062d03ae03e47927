// The Joseph projector pair's facts, shared by joseph.cu (which is compiled with them) and manifest.cpp (which prints
// them into the variant manifest for the Java side: KernelFacts): block size, the per-projection table's layout, and
// the kernels the product instantiates.
#pragma once

#define JOSEPH_THREADS 256
#define JOSEPH_GUARD 2
// fixed-point positions: 32 fraction bits (a walk of 4096 steps drifts by under 5e-7 pixel), 32 integer bits; the
// integer part is then the high word and the fraction the low word, with no shift (44 bits cost the forward
// projection 40% on an H200)
#define JOSEPH_FRACTION_BITS 32

// The per-projection table, written by the host from the double-precision geometry: fixed-point fields
// tab[p·JOSEPH_TAB + field] and float fields ftab[p·JOSEPH_FTAB + field].
//   Adjoint: v = sgn·t is walked down a column, v(i, j) = JT_VOFF + j·JT_VCOS − i·JT_VSTEP, JT_VSTEP = |sin| ≥ 0;
//   v's bin b is detector bin sgn·b (JT_VSGN = sgn, ±1).
//   Forward: w = fsgn·(position along the line) is walked over the rays and lines, w(u, l) = JT_FPOS0 + u·JT_FRAY +
//   l·JT_FLINE, JT_FRAY = 1/|cos| (flat) or 1/|sin| (steep) ≥ 1, so consecutive rays are 1 or 2 pixels apart; w's
//   pixel m is line pixel fsgn·m. JT_FFLAGS: JT_FLAT (|cos| ≥ |sin|: the ray crosses image rows), JT_NEGATIVE (fsgn < 0).
#define JOSEPH_TAB 8
#define JT_VOFF 0
#define JT_VCOS 1
#define JT_VSTEP 2
#define JT_VSGN 3
#define JT_FPOS0 4
#define JT_FRAY 5
#define JT_FLINE 6
#define JT_FFLAGS 7
#define JT_FLAT 1
#define JT_NEGATIVE 2
#define JOSEPH_FTAB 4
#define JF_IG 0     // 1/g, g = max(|cos|, |sin|): the adjoint's hat is hat(d/g)/g
#define JF_IG2 1    // 1/g²
#define JF_W 2      // the forward's path length per line, 1/g

// Kernel names: C slices a thread, U rays (forward) or R image rows (adjoint) a thread, A projections a thread
// (forward), B groups a block.
#define JOSEPH_NAME_FORWARD(C, U, A, B) joseph_forward_c##C##_u##U##_a##A##_b##B
#define JOSEPH_NAME_BACK(C, R, B) joseph_back_c##C##_r##R##_b##B

// The product set, each list in preference order (CudaProjector takes the first that fits the pass: C divides k and
// B·k/C threads fit a block; the last fits every k): 32 slices of 2048² from 2048 projections on an H200 (jbench,
// kernels only) took 119 ms forward (c8_u2_a2_b4) and 92 ms adjoint (c8_r4_b8); the kernels before (geometry in double
// at every step, no window): 195 and 143 ms.
#define JOSEPH_PRODUCT(FORWARD, BACK)                                                                                  \
    FORWARD(8, 2, 2, 4) FORWARD(4, 4, 2, 8) FORWARD(2, 4, 2, 4) FORWARD(1, 4, 2, 1)                                    \
    BACK(8, 4, 8) BACK(4, 4, 16) BACK(2, 4, 8) BACK(1, 4, 1)
