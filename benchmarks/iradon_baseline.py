#!/usr/bin/env python3
"""The scikit-image baseline of the real-path benchmark on a 2-core machine: the same DataExchange scan, read with
h5py, flat/dark-corrected and -log'ed with numpy, and reconstructed row by row with skimage.transform.iradon (ramp
filter, linear interpolation, output size = detector width), as a beamline script would. Prints the seconds of each
step; nothing is written (which favours the baseline).

usage: iradon_baseline.py SCAN.h5 [ROWS]
"""
import sys
import time

import h5py
import numpy as np
from skimage.transform import iradon


def main(path, rows=None):
    t0 = time.perf_counter()
    with h5py.File(path, "r") as f:
        n = f["/exchange/data"].shape[1] if rows is None else rows
        data = f["/exchange/data"][:, :n, :].astype(np.float32)
        flat = f["/exchange/data_white"][:, :n, :].mean(axis=0)
        dark = f["/exchange/data_dark"][:, :n, :].mean(axis=0)
        theta = f["/exchange/theta"][:]
    t1 = time.perf_counter()
    sino = -np.log(np.clip((data - dark) / np.maximum(flat - dark, 1e-3), 1e-6, None))
    t2 = time.perf_counter()
    width = sino.shape[2]
    for r in range(n):
        iradon(sino[:, r, :].T, theta=theta, filter_name="ramp", interpolation="linear", circle=False, output_size=width)
    t3 = time.perf_counter()
    print(f"skimage iradon: {n} slices of {width}x{width} from {len(theta)} angles: read {t1 - t0:.2f} s, "
          f"preprocess {t2 - t1:.2f} s, iradon {t3 - t2:.2f} s, total {t3 - t0:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
