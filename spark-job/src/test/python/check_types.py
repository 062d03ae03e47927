#!/usr/bin/env python3
"""Checks compact-type slices against the float32 slices of the same run, with tifffile and numpy (readers
independent of the project's).

usage: check_types.py FLOAT32_DIR FLOAT16_DIR UINT16_DIR MIN MAX
       check_types.py --auto FLOAT32_DIR UINT16_DIR ROW LOW HIGH

float16 slices must equal the float32 values rounded by numpy (astype(float16), nearest even); uint16 slices must be
the float32 values counted on the linear scale from MIN (0) to MAX (65535), within one count of numpy's rint, and
their ImageDescription must carry ImageJ's calibration c0 = MIN, c1 = (MAX - MIN) / 65535. Prints one line per check
and exits 1 on the first failure. With --auto: the uint16 output's range, in its manifest.json, must be numpy's
percentiles LOW and HIGH of the float32 slice ROW, and its counts that range's.
"""
import glob
import json
import os
import sys

import numpy as np
import tifffile


def description(page):
    tags = {t.name: t.value for t in page.tags.values()}
    return dict(line.split("=", 1) for line in tags.get("ImageDescription", "").splitlines() if "=" in line)


def main(f32_dir, f16_dir, u16_dir, lo, hi):
    lo, hi = float(lo), float(hi)
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(f32_dir, "slice_*.tif")))
    if not names:
        sys.exit("no slices in " + f32_dir)
    worst = 0
    for n in names:
        ref = tifffile.imread(os.path.join(f32_dir, n))
        assert ref.dtype == np.float32, (n, ref.dtype)
        if f16_dir is not None:
            h = tifffile.imread(os.path.join(f16_dir, n))
            assert h.dtype == np.float16, (n, h.dtype)
            if not np.array_equal(h, ref.astype(np.float16)):
                sys.exit(f"{n}: float16 differs from numpy's rounding at {np.count_nonzero(h != ref.astype(np.float16))} "
                         "pixels")
        with tifffile.TiffFile(os.path.join(u16_dir, n)) as t:
            u = t.pages[0].asarray()
            d = description(t.pages[0])
        assert u.dtype == np.uint16, (n, u.dtype)
        expected = np.clip(np.rint((ref.astype(np.float64) - lo) / (hi - lo) * 65535), 0, 65535)
        diff = np.abs(u.astype(np.float64) - expected).max()
        worst = max(worst, diff)
        if diff > 1:
            sys.exit(f"{n}: uint16 counts differ from the scaled float32 by {diff}")
        if d.get("cf") != "0" or abs(float(d["c0"]) - lo) > 1e-12 * max(1, abs(lo)) \
                or abs(float(d["c1"]) - (hi - lo) / 65535) > 1e-12 * (hi - lo):
            sys.exit(f"{n}: ImageDescription lacks the calibration c0={lo}, c1={(hi - lo) / 65535}: {d}")
        decoded = float(d["c0"]) + u.astype(np.float64) * float(d["c1"])
        inside = (ref >= lo) & (ref <= hi)
        err = np.abs(decoded - ref)[inside].max()
        if err > (hi - lo) / 65535:
            sys.exit(f"{n}: uint16 decoded values are {err} from the float32 ones")
    f16 = "float16 identical to numpy's rounding; " if f16_dir is not None else ""
    print(f"ok: {len(names)} slices; {f16}uint16 within {worst:g} count of numpy")


def auto(f32_dir, u16_dir, row, low, high):
    ref = tifffile.imread(os.path.join(f32_dir, "slice_%05d.tif" % int(row)))
    lo, hi = np.percentile(ref[~np.isnan(ref)].astype(np.float64), [float(low), float(high)])
    with open(os.path.join(u16_dir, "manifest.json")) as f:
        t = json.load(f)["output"]["type"]
    if abs(t["min"] - lo) > 1e-9 * max(1, abs(lo)) or abs(t["max"] - hi) > 1e-9 * max(1, abs(hi)):
        sys.exit(f"range {t['min']}, {t['max']} is not numpy's percentiles {lo}, {hi} of slice {row}")
    print(f"ok: range {lo:g}, {hi:g} from percentiles {low}, {high}")
    return t["min"], t["max"]


if __name__ == "__main__":
    if sys.argv[1] == "--auto":
        lo, hi = auto(*sys.argv[2:7])
        main(sys.argv[2], None, sys.argv[3], repr(lo), repr(hi))
    else:
        main(*sys.argv[1:6])
