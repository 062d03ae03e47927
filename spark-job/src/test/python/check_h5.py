#!/usr/bin/env python3
"""Checks an HDF5 output against the TIFF output of the same run, with h5py (Debian's python3-h5py) and tifffile,
readers independent of the project's.

usage: check_h5.py TIFF_DIR H5_OUTPUT_DIR

The dataset /volume in H5_OUTPUT_DIR/volume.h5 holds the slices the run reconstructed and no others: z = 0 is the
first, the slice its attribute firstSlice names. Every slice_NNNNN.tif must equal, bit for bit, z = NNNNN - firstSlice
(float32; for float16 and uint16 the TIFFs must be of the same type), and the shape must be (number of TIFFs, height,
width); the dataset is chunked one slice per chunk and carries the run's description as attributes, whose centre and value scaling
must match the TIFFs'. Prints one line and exits 1 on the first difference.
"""
import glob
import json
import os
import sys

import h5py
import numpy as np
import tifffile


def main(tiff_dir, h5_out):
    with h5py.File(os.path.join(h5_out, "volume.h5"), "r") as f:
        d = f["volume"]
        if d.chunks != (1,) + d.shape[1:]:
            sys.exit(f"chunks {d.chunks}, not one slice each")
        first = int(d.attrs["firstSlice"])
        rows = []
        for p in sorted(glob.glob(os.path.join(tiff_dir, "slice_*.tif"))):
            row = int(os.path.basename(p)[6:-4])
            t = tifffile.imread(p)
            if not 0 <= row - first < d.shape[0]:
                sys.exit(f"slice {row} lies outside the dataset of {d.shape[0]} slices from slice {first}")
            a = d[row - first]
            if a.dtype != t.dtype or a.shape != t.shape:
                sys.exit(f"z={row}: {a.dtype} {a.shape} in the HDF5 file, {t.dtype} {t.shape} in the TIFF")
            if a.tobytes() != t.tobytes():
                sys.exit(f"z={row}: differs from {os.path.basename(p)} at {np.count_nonzero(a != t)} pixels")
            rows.append(row)
        if not rows:
            sys.exit("no slices in " + tiff_dir)
        if d.shape[0] != len(rows) or rows != list(range(first, first + len(rows))):
            sys.exit(f"the dataset holds {d.shape[0]} slices from slice {first}; the TIFFs are slices {rows}")
        attrs = dict(d.attrs)
        meta = json.loads(attrs["tomospark"])
        if "center" in meta["geometry"] and attrs["geometry.center"] != meta["geometry"]["center"]:
            sys.exit(f"geometry.center {attrs['geometry.center']} but {meta['geometry']['center']} in the JSON")
        if attrs["values.type"] != str(d.dtype):
            sys.exit(f"values.type {attrs['values.type']} for a {d.dtype} dataset")
        if list(attrs["reconstructedRows"]) != [min(rows), max(rows) + 1]:
            sys.exit(f"reconstructedRows {attrs['reconstructedRows']}, the TIFFs cover {min(rows)}..{max(rows)}")
        if d.dtype == np.uint16:
            tiff = tifffile.TiffFile(sorted(glob.glob(os.path.join(tiff_dir, "slice_*.tif")))[0])
            desc = tiff.pages[0].description
            for key, name in (("c0", "values.offset"), ("c1", "values.scale")):
                v = float([x for x in desc.split("\n") if x.startswith(key + "=")][0].split("=")[1])
                if not np.isclose(v, attrs[name], rtol=1e-12, atol=0):
                    sys.exit(f"{name} {attrs[name]} but the TIFF's calibration says {key}={v}")
    print(f"ok: {len(rows)} slices equal from slice {first}; shape {d.shape}, chunks {d.chunks}, "
          f"{d.dtype}; {len(attrs)} attributes")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
