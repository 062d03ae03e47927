#!/usr/bin/env python3
"""Checks an HDF5 output against the TIFF output of the same run, with h5py (Debian's python3-h5py) and tifffile,
readers independent of the project's.

usage: check_h5.py TIFF_DIR H5_OUTPUT_DIR

Every slice_NNNNN.tif must equal, bit for bit, z = NNNNN of the dataset /volume in H5_OUTPUT_DIR/volume.h5 (float32;
for float16 and uint16 the TIFFs must be of the same type); the dataset's other slices must hold the fill value; the
dataset is chunked one slice per chunk and carries the run's description as attributes, whose centre and value scaling
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
        rows = []
        for p in sorted(glob.glob(os.path.join(tiff_dir, "slice_*.tif"))):
            row = int(os.path.basename(p)[6:-4])
            t = tifffile.imread(p)
            a = d[row]
            if a.dtype != t.dtype or a.shape != t.shape:
                sys.exit(f"z={row}: {a.dtype} {a.shape} in the HDF5 file, {t.dtype} {t.shape} in the TIFF")
            if a.tobytes() != t.tobytes():
                sys.exit(f"z={row}: differs from {os.path.basename(p)} at {np.count_nonzero(a != t)} pixels")
            rows.append(row)
        if not rows:
            sys.exit("no slices in " + tiff_dir)
        others = [r for r in range(d.shape[0]) if r not in rows]
        for r in others:
            a = d[r]
            if not (np.all(np.isnan(a)) if a.dtype.kind == "f" else np.all(a == 0)):
                sys.exit(f"z={r} was not reconstructed but does not hold the fill value")
        attrs = dict(d.attrs)
        meta = json.loads(attrs["tomospark"])
        if attrs["geometry.center"] != meta["geometry"]["center"]:
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
    print(f"ok: {len(rows)} slices equal, {len(others)} fill-value slices; shape {d.shape}, chunks {d.chunks}, "
          f"{d.dtype}; {len(attrs)} attributes")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
