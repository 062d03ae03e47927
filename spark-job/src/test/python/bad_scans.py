#!/usr/bin/env python3
"""Writes DataExchange scans with one fault each, with h5py (an HDF5 writer independent of the project's jhdf).

usage: bad_scans.py OUTDIR

Each file is a 64-column, 8-row, 90-angle uint16 scan of a disc, except for its one fault:
  good.h5          nothing wrong (the reference)
  data_last.h5     /exchange/data written as the last dataset (cut short by the test)
  no_dark.h5       no /exchange/data_dark
  no_white.h5      no /exchange/data_white, darks present
  radians.h5       theta in radians
  unordered.h5     theta not monotonic, with a repeated angle
  theta_len.h5     theta one angle short
  rank2.h5         /exchange/data of rank 2
  int32.h5         /exchange/data as int32
  empty.h5         /exchange/data with 0 angles
"""
import sys

import h5py
import numpy as np

W, R, N = 64, 8, 90
theta = np.linspace(0.0, 180.0, N, endpoint=False)


def counts(angles_deg):
    x = np.arange(W) - (W - 1) / 2.0
    chord = 2.0 * np.sqrt(np.clip(20.0 ** 2 - x ** 2, 0, None))  # a disc of radius 20 px, centred on the axis
    line = 1000.0 * np.exp(-0.02 * chord) + 100.0
    return np.broadcast_to(line, (len(angles_deg), R, W)).round().astype(np.uint16)


def write(path, data=None, white=True, dark=True, angles=theta, data_last=False):
    d = counts(theta) if data is None else data
    with h5py.File(path, "w") as f:
        ex = f.create_group("exchange")
        if not data_last:
            ex["data"] = d
        if white:
            ex["data_white"] = np.full((4, R, W), 1100, np.uint16)
        if dark:
            ex["data_dark"] = np.full((2, R, W), 100, np.uint16)
        ex["theta"] = np.asarray(angles, np.float64)
        if data_last:
            ex["data"] = d


def main(out):
    write(f"{out}/good.h5")
    write(f"{out}/data_last.h5", data_last=True)
    write(f"{out}/no_dark.h5", dark=False)
    write(f"{out}/no_white.h5", white=False)
    write(f"{out}/radians.h5", angles=np.deg2rad(theta))
    unordered = theta.copy()
    unordered[10], unordered[11] = unordered[11], unordered[10]
    unordered[40] = unordered[39]
    write(f"{out}/unordered.h5", angles=unordered)
    write(f"{out}/theta_len.h5", angles=theta[:-1])
    write(f"{out}/rank2.h5", data=counts(theta)[:, 0, :])
    write(f"{out}/int32.h5", data=counts(theta).astype(np.int32))
    write(f"{out}/empty.h5", data=np.zeros((0, R, W), np.uint16), angles=np.zeros(0))


if __name__ == "__main__":
    main(sys.argv[1])
