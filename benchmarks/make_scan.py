#!/usr/bin/env python3
"""Writes a synthetic DataExchange scan for the real-path benchmark, with h5py, in blocks of projections.

usage: make_scan.py OUT.h5 ANGLES ROWS COLUMNS [LAYOUT]

/exchange/data [angle, row, column] uint16; 10 flats, 10 darks; theta over 180 degrees. LAYOUT: contiguous (the
default), or one projection per chunk compressed with gzip (level 1), bitshuffle-lz4 (32008) or blosc-zstd (Blosc
32001, Zstd level 5, bit shuffle), the last two through python3-hdf5plugin. The object is
a few discs of different attenuation off the rotation axis (centre (COLUMNS-1)/2), varying slowly with the row, so
that every projection differs and no transmission is clamped. Noise-free: the benchmark times, it does not judge.
"""
import sys

import h5py
import numpy as np


def layout_options(layout, rows, cols):
    if layout == "contiguous":
        return {}
    chunk = dict(chunks=(1, rows, cols))
    if layout == "gzip":
        return dict(chunk, compression="gzip", compression_opts=1)
    import hdf5plugin
    if layout == "bitshuffle-lz4":
        return dict(chunk, **hdf5plugin.Bitshuffle(cname="lz4"))
    if layout == "blosc-zstd":
        return dict(chunk, **hdf5plugin.Blosc(cname="zstd", clevel=5, shuffle=hdf5plugin.Blosc.BITSHUFFLE))
    raise SystemExit("unknown layout " + layout)


def main(out, angles, rows, cols, layout="contiguous"):
    theta = np.linspace(0.0, 180.0, angles, endpoint=False)
    c = (cols - 1) / 2.0
    x = np.arange(cols, dtype=np.float64) - c
    # attenuation per pixel, scaled so that the longest ray keeps about 1 % of the beam at any size
    discs = [(0.0, 0.0, 0.42 * cols, 2.0), (0.18 * cols, 0.05 * cols, 0.12 * cols, 4.0), (-0.2 * cols, -0.1 * cols, 0.08 * cols, 6.0)]
    discs = [(dx, dy, r, mu / cols) for (dx, dy, r, mu) in discs]
    row_scale = 0.8 + 0.4 * np.sin(np.linspace(0, np.pi, rows))[:, None]
    flat, dark = 20000.0, 100.0
    block = max(1, int((256 << 20) // (rows * cols * 2)))
    with h5py.File(out, "w") as f:
        ex = f.create_group("exchange")
        d = ex.create_dataset("data", (angles, rows, cols), dtype=np.uint16, **layout_options(layout, rows, cols))
        ex["data_white"] = np.full((10, rows, cols), flat + dark, np.uint16)
        ex["data_dark"] = np.full((10, rows, cols), dark, np.uint16)
        ex["theta"] = theta
        for a0 in range(0, angles, block):
            a1 = min(angles, a0 + block)
            t = np.deg2rad(theta[a0:a1])[:, None]
            line = np.zeros((a1 - a0, cols))
            for (dx, dy, r, mu) in discs:
                u = x[None, :] - (dx * np.cos(t) + dy * np.sin(t))
                line += mu * 2.0 * np.sqrt(np.clip(r * r - u * u, 0, None))
            counts = dark + flat * np.exp(-line[:, None, :] * row_scale[None, :, :])
            d[a0:a1] = np.round(counts).astype(np.uint16)
    print(f"wrote {out}: {angles} x {rows} x {cols} uint16, {layout}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] if len(sys.argv) > 5 else "contiguous")
