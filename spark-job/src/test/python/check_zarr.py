#!/usr/bin/env python3
"""Checks a Zarr output against the TIFF output of the same run, with zarr-python (Debian's python3-zarr) and
tifffile, readers independent of the project's.

usage: check_zarr.py TIFF_DIR ZARR_OUTPUT_DIR

The array holds the slices the run reconstructed and no others: z = 0 is the first, the slice its attributes name
(tomospark.firstSlice). Every slice_NNNNN.tif must equal, bit for bit, z = NNNNN - firstSlice of
ZARR_OUTPUT_DIR/volume.zarr (float32; for float16 and uint16 Zarr arrays the TIFFs must be of the same type), and the
array's shape must be (number of TIFFs, height, width). Prints one line and exits 1 on the first difference.
"""
import glob
import os
import sys

import numpy as np
import tifffile
import zarr


def main(tiff_dir, zarr_out):
    z = zarr.open(os.path.join(zarr_out, "volume.zarr"), mode="r")
    first = z.attrs["tomospark"]["firstSlice"]
    rows = []
    for p in sorted(glob.glob(os.path.join(tiff_dir, "slice_*.tif"))):
        row = int(os.path.basename(p)[6:-4])
        t = tifffile.imread(p)
        if not 0 <= row - first < z.shape[0]:
            sys.exit(f"slice {row} lies outside the array of {z.shape[0]} slices from slice {first}")
        a = z[row - first]
        if a.dtype != t.dtype or a.shape != t.shape:
            sys.exit(f"z={row}: {a.dtype} {a.shape} in the Zarr, {t.dtype} {t.shape} in the TIFF")
        if a.tobytes() != t.tobytes():
            sys.exit(f"z={row}: differs from {os.path.basename(p)} at {np.count_nonzero(a != t)} pixels")
        rows.append(row)
    if not rows:
        sys.exit("no slices in " + tiff_dir)
    if z.shape[0] != len(rows) or rows != list(range(first, first + len(rows))):
        sys.exit(f"the array holds {z.shape[0]} slices from slice {first}; the TIFFs are slices {rows}")
    print(f"ok: {len(rows)} slices equal from slice {first}; shape {z.shape}, chunks {z.chunks}, "
          f"{z.dtype}, compressor {z.compressor}; attrs {sorted(z.attrs.keys())}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
