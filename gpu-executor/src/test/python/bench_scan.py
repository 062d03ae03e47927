#!/usr/bin/env python3
"""Writes a synthetic uint16 DataExchange scan for ReadBenchmark, with h5py, one projection at a time.

usage: bench_scan.py OUT.h5 ANGLES ROWS COLUMNS [gzip]

/exchange/data [ANGLES, ROWS, COLUMNS] uint16: contiguous, or with 'gzip' chunked one projection per chunk and
compressed with gzip level 1 (as many beamlines write); 4 flats, 2 darks and the angles.
"""
import sys

import h5py
import numpy as np


def main(out, angles, rows, cols, gzip=False):
    rng = np.random.default_rng(7)
    x = np.arange(cols) - cols / 2.0
    options = dict(chunks=(1, rows, cols), compression="gzip", compression_opts=1) if gzip else {}
    with h5py.File(out, "w") as f:
        ex = f.create_group("exchange")
        ex.create_dataset("data_white", data=np.full((4, rows, cols), 3000, np.uint16))
        ex.create_dataset("data_dark", data=np.full((2, rows, cols), 100, np.uint16))
        ex["theta"] = np.linspace(0.0, 180.0, angles, endpoint=False)
        d = ex.create_dataset("data", shape=(angles, rows, cols), dtype=np.uint16, **options)
        for p in range(angles):
            shift = 0.3 * cols * np.sin(np.pi * p / angles)
            line = 1000.0 + 1500.0 * np.exp(-((x - shift) / (0.2 * cols)) ** 2)
            d[p] = (line[None, :] + rng.integers(0, 64, (rows, cols))).astype(np.uint16)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), len(sys.argv) > 5 and sys.argv[5] == "gzip")
