#!/usr/bin/env python3
"""Writes DataExchange scans in the storage layouts HDF5 offers, with h5py (an HDF5 writer independent of the
project's jhdf), for the direct band readers' tests.

usage: layouts.py OUTDIR

Every file holds /exchange/data [181 angles, 13 rows, 333 columns], 4 flats and 2 darks of the same frame shape,
and 181 angles. The samples are a formula of their indices that the Java tests compute on their own:
  uint16   (p * 7919 + r * 104729 + c * 31 + 12345) mod 65536   (the upper half of the range included)
  float32  p * 1000 - r * 40 + c * 0.5 - 7.25                    (exact in float32)
with p the frame (flats: p + 1000, darks: p + 2000), r the row and c the column. The file names say the layout:
  {type}_{order}_contiguous.h5         contiguous, order le or be
  u16_le_contiguous_userblock.h5       contiguous, after a 512-byte user block
  {type}_{order}_chunk_{c0}x{c1}x{c2}_{filter}.h5   chunked, filter none, gzip, gzip_shuffle, lzf or fletcher32
  u16_le_latest_chunk_...              the same written with libver='latest' (version-4 layout, fixed-array index)
  u16_le_growable_chunk_...            chunked with an unlimited first dimension (extensible-array index)
  u16_le_compact.h5                    compact layout (a small 9 x 3 x 17 scan)
  u16_le_sparse_chunk_8x4x64.h5        chunked, only the chunks of frames 0..7 written (the rest are fill)
and the same scans as headerless raw files (numpy's tofile) after a 64-byte header:
  {type}_{order}.raw, {type}_{order}_flats.raw, {type}_{order}_darks.raw
"""
import sys

import h5py
import numpy as np

N, R, W = 181, 13, 333


def u16(p0, n, rows=R, width=W):
    p, r, c = np.meshgrid(np.arange(p0, p0 + n, dtype=np.int64), np.arange(rows, dtype=np.int64),
                          np.arange(width, dtype=np.int64), indexing="ij")
    return ((p * 7919 + r * 104729 + c * 31 + 12345) % 65536).astype(np.uint16)


def f32(p0, n, rows=R, width=W):
    p, r, c = np.meshgrid(np.arange(p0, p0 + n, dtype=np.float64), np.arange(rows, dtype=np.float64),
                          np.arange(width, dtype=np.float64), indexing="ij")
    return (p * 1000 - r * 40 + c * 0.5 - 7.25).astype(np.float32)


def write(path, kind="u16", order="<", n=N, rows=R, width=W, libver="earliest", userblock=0, sparse_frames=None,
          **dataset_options):
    make = u16 if kind == "u16" else f32
    dtype = np.dtype(("u2" if kind == "u16" else "f4")).newbyteorder(order)
    with h5py.File(path, "w", libver=libver, userblock_size=userblock) as f:
        ex = f.create_group("exchange")
        frames = {"data": (0, n), "data_white": (1000, 4), "data_dark": (2000, 2)}
        for name, (p0, count) in frames.items():
            values = make(p0, count, rows, width)
            ds = ex.create_dataset(name, shape=values.shape, dtype=dtype, **(dataset_options if name == "data" else {}))
            if name == "data" and sparse_frames is not None:
                ds[:sparse_frames] = values[:sparse_frames]
            else:
                ds[...] = values
        ex["theta"] = np.linspace(0.0, 180.0, n, endpoint=False)


def main(out):
    for kind in ("u16", "f32"):
        for order, tag in (("<", "le"), (">", "be")):
            write(f"{out}/{kind}_{tag}_contiguous.h5", kind, order)
            for chunks in ((1, R, W), (4, 5, 100), (7, 13, 64), (N, 1, W)):
                shape = "x".join(map(str, chunks))
                write(f"{out}/{kind}_{tag}_chunk_{shape}_none.h5", kind, order, chunks=chunks)
                write(f"{out}/{kind}_{tag}_chunk_{shape}_gzip.h5", kind, order, chunks=chunks, compression="gzip")
    write(f"{out}/u16_le_contiguous_userblock.h5", userblock=512)
    write(f"{out}/u16_le_chunk_4x5x100_gzip_shuffle.h5", chunks=(4, 5, 100), compression="gzip", shuffle=True)
    write(f"{out}/f32_le_chunk_4x5x100_gzip_shuffle.h5", "f32", chunks=(4, 5, 100), compression="gzip", shuffle=True)
    write(f"{out}/u16_le_chunk_4x5x100_lzf.h5", chunks=(4, 5, 100), compression="lzf")
    write(f"{out}/u16_le_chunk_4x5x100_fletcher32.h5", chunks=(4, 5, 100), fletcher32=True)
    write(f"{out}/u16_le_latest_chunk_4x5x100_gzip.h5", libver="latest", chunks=(4, 5, 100), compression="gzip")
    write(f"{out}/u16_le_growable_chunk_4x5x100_gzip.h5", libver="latest", chunks=(4, 5, 100), compression="gzip",
          maxshape=(None, R, W))
    write_compact(f"{out}/u16_le_compact.h5")
    write(f"{out}/u16_le_sparse_chunk_8x4x64.h5", chunks=(8, 4, 64), sparse_frames=8)
    for kind, make in (("u16", u16), ("f32", f32)):
        for order, tag in (("<", "le"), (">", "be")):
            dtype = np.dtype(("u2" if kind == "u16" else "f4")).newbyteorder(order)
            for suffix, p0, count in (("", 0, N), ("_flats", 1000, 4), ("_darks", 2000, 2)):
                with open(f"{out}/{kind}_{tag}{suffix}.raw", "wb") as f:
                    f.write(bytes(range(64)))
                    make(p0, count).astype(dtype).tofile(f)


def write_compact(path):
    """Compact layout has no high-level h5py switch: build the dataset through the low-level API."""
    n, rows, width = 9, 3, 17
    with h5py.File(path, "w") as f:
        ex = f.create_group("exchange")
        for name, p0, count in (("data", 0, n), ("data_white", 1000, 4), ("data_dark", 2000, 2)):
            values = u16(p0, count, rows, width)
            dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
            dcpl.set_layout(h5py.h5d.COMPACT)
            space = h5py.h5s.create_simple(values.shape)
            dsid = h5py.h5d.create(ex.id, name.encode(), h5py.h5t.STD_U16LE, space, dcpl=dcpl)
            dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, values)
        ex["theta"] = np.linspace(0.0, 180.0, n, endpoint=False)


if __name__ == "__main__":
    main(sys.argv[1])
