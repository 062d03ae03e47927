#!/usr/bin/env python3
"""Writes a synthetic uint16 DataExchange scan for ReadBenchmark, with h5py, one projection at a time.

usage: bench_scan.py OUT.h5 ANGLES ROWS COLUMNS [LAYOUT]

/exchange/data [ANGLES, ROWS, COLUMNS] uint16, 4 flats, 2 darks and the angles. LAYOUT: contiguous (the default), or
chunked one projection per chunk (as many beamlines write) and compressed: gzip (level 1), bitshuffle-lz4 (filter
32008) or blosc-zstd (Blosc 32001 with Zstd level 5 and bit shuffle; both from python3-hdf5plugin).
"""
import os
import sys

import h5py
import numpy as np

# the layouts are benchmarks/make_scan.py's, so that both benchmarks compress alike
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "benchmarks"))
from make_scan import layout_options  # noqa: E402


def main(out, angles, rows, cols, layout="contiguous"):
    rng = np.random.default_rng(7)
    x = np.arange(cols) - cols / 2.0
    with h5py.File(out, "w") as f:
        ex = f.create_group("exchange")
        ex.create_dataset("data_white", data=np.full((4, rows, cols), 3000, np.uint16))
        ex.create_dataset("data_dark", data=np.full((2, rows, cols), 100, np.uint16))
        ex["theta"] = np.linspace(0.0, 180.0, angles, endpoint=False)
        d = ex.create_dataset("data", shape=(angles, rows, cols), dtype=np.uint16, **layout_options(layout, rows, cols))
        for p in range(angles):
            shift = 0.3 * cols * np.sin(np.pi * p / angles)
            line = 1000.0 + 1500.0 * np.exp(-((x - shift) / (0.2 * cols)) ** 2)
            d[p] = (line[None, :] + rng.integers(0, 64, (rows, cols))).astype(np.uint16)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] if len(sys.argv) > 5 else "contiguous")
