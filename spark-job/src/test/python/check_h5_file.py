#!/usr/bin/env python3
"""Reads an HDF5 file written by the project's HDF5 writer with h5py (Debian's python3-h5py), an independent reader,
and compares it with what the writer was given.

usage: check_h5_file.py FILE.h5 DATASET EXPECTED.raw EXPECTED.json

EXPECTED.json: {"dtype": numpy dtype string, "shape": [z, y, x], "attrs": {name: value}}; EXPECTED.raw: the whole
volume's bytes in that dtype, C order, the fill value where no chunk was written. The dataset must hold exactly those
bytes, be chunked one z-slice per chunk, and carry exactly those attributes (strings, numbers, lists of numbers). Prints
one line and exits 1 on the first difference.
"""
import json
import sys

import h5py
import numpy as np


def same(a, b):
    if isinstance(b, str):
        return isinstance(a, str) and a == b  # variable-length UTF-8: h5py gives str
    if isinstance(b, list):
        return isinstance(a, np.ndarray) and a.ndim == 1 and a.tolist() == b
    return np.isscalar(a) and not isinstance(a, bytes) and a == b and type(a.item()) is type(b)


def main(path, name, raw, spec):
    want = json.load(open(spec))
    with h5py.File(path, "r") as f:
        if list(f.keys()) != [name]:
            sys.exit(f"the root group holds {list(f.keys())}, not [{name}]")
        d = f[name]
        shape = tuple(want["shape"])
        dtype = np.dtype(want["dtype"])
        if d.shape != shape or d.dtype != dtype:
            sys.exit(f"{d.dtype} {d.shape}, expected {dtype} {shape}")
        if d.chunks != (1,) + shape[1:]:
            sys.exit(f"chunks {d.chunks}")
        expected = np.fromfile(raw, dtype=dtype).reshape(shape)
        a = d[...]
        if a.tobytes() != expected.tobytes():
            diff = np.argwhere(a.view(np.uint8).reshape(shape + (-1,)) != expected.view(np.uint8).reshape(shape + (-1,)))
            sys.exit(f"values differ, first at {tuple(diff[0][:3])}: {a[tuple(diff[0][:3])]} != "
                     f"{expected[tuple(diff[0][:3])]}")
        for z in range(shape[0]):  # one chunk at a time too, as a reader of a large volume would
            if d[z].tobytes() != expected[z].tobytes():
                sys.exit(f"z={z} read alone differs")
        attrs = dict(d.attrs)
        if sorted(attrs) != sorted(want["attrs"]):
            sys.exit(f"attributes {sorted(attrs)}, expected {sorted(want['attrs'])}")
        for k, v in want["attrs"].items():
            if not same(attrs[k], v):
                sys.exit(f"attribute {k}: {attrs[k]!r} ({type(attrs[k]).__name__}), expected {v!r}")
        stored = sum(1 for z in range(shape[0]) if d.id.get_chunk_info_by_coord((z, 0, 0)).byte_offset is not None)
    print(f"ok: {shape} {dtype}, {stored} chunks stored, {len(want['attrs'])} attributes")


if __name__ == "__main__":
    main(*sys.argv[1:5])
